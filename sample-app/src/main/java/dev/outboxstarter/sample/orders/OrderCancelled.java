package dev.outboxstarter.sample.orders;

import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

/**
 * An order was cancelled.
 *
 * @param orderId the order
 * @param reason why, if given
 */
@OutboxEvent(type = "OrderCancelled", destination = "${sample.topic:orders}")
public record OrderCancelled(UUID orderId, String reason) {
}
