package dev.outboxstarter.it.twodatabases.orders;

import dev.outboxstarter.OutboxEvent;

/** Keyed by the customer, so that the orders of one customer keep their order. */
@OutboxEvent(destination = "${test.orders-topic}", key = "customer")
public record OrderPlaced(String run, String customer, int sequence) {
}
