package dev.outboxstarter.compatibility;

import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

/**
 * Published to Kafka, keyed by the order it came from.
 */
@OutboxEvent(destination = CompatibilityTests.TOPIC)
record OrderPlaced(UUID orderId, String customer) {

}
