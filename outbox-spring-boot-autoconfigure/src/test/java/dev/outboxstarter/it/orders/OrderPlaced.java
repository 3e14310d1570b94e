package dev.outboxstarter.it.orders;

import dev.outboxstarter.OutboxEvent;

@OutboxEvent(destination = "${test.topic}")
public record OrderPlaced(String customer, int line) {
}
