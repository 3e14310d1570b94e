package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

/**
 * An order was paid. Raised by {@link Order#pay()} on a loaded order that is never passed to
 * {@code save()}: Spring Data alone would drop it, the outbox captures it when Hibernate flushes the
 * changed order.
 *
 * @param orderId the order
 * @param amount what was paid
 */
@OutboxEvent(type = "OrderPaid", destination = "${sample.topic:orders}")
public record OrderPaid(UUID orderId, BigDecimal amount) {
}
