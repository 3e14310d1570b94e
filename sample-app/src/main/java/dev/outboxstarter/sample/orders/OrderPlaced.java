package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

/**
 * An order was placed. Raised when a new {@link Order} is saved through its repository.
 * <p>
 * {@code @OutboxEvent} makes it an outbox event: written to the outbox table in the transaction that
 * placed the order, then published to the topic. The message key defaults to the aggregate id (the
 * order id), so all events of one order reach the consumer in commit order.
 *
 * @param orderId the order
 * @param customer who placed it
 * @param amount what it costs
 */
@OutboxEvent(type = "OrderPlaced", destination = "${sample.topic:orders}")
public record OrderPlaced(UUID orderId, String customer, BigDecimal amount) {
}
