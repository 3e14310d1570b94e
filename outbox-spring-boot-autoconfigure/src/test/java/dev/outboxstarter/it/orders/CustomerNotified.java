package dev.outboxstarter.it.orders;

import dev.outboxstarter.OutboxEvent;

/** Keyed by an expression rather than by the aggregate id. */
@OutboxEvent(destination = "${test.topic}", key = "customer")
public record CustomerNotified(String customer) {
}
