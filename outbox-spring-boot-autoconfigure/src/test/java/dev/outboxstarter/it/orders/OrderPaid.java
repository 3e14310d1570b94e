package dev.outboxstarter.it.orders;

import dev.outboxstarter.OutboxEvent;

@OutboxEvent(type = "order-paid", destination = "${test.topic}")
public record OrderPaid(Long orderId) {
}
