package dev.outboxstarter.sample.orders;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The orders. {@code save()} publishes an order's registered events (Spring Data), which the outbox
 * captures with the order as their aggregate.
 */
public interface OrderRepository extends JpaRepository<Order, UUID> {

}
