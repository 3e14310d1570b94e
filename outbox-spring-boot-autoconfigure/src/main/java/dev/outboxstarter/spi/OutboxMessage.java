package dev.outboxstarter.spi;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * An outbox event as a transport sends it.
 *
 * @param id the message id; send it so consumers can deduplicate
 * @param eventType the logical event type
 * @param aggregateType type of the aggregate that raised it, if any
 * @param aggregateId id of that aggregate, if any
 * @param destination topic or the transport's equivalent
 * @param key message key, if any
 * @param payload the event as JSON
 * @param headers headers captured with the event
 * @param occurredAt when the event was written
 * @since 0.1.0
 */
public record OutboxMessage(UUID id, String eventType, @Nullable String aggregateType, @Nullable String aggregateId,
		String destination, @Nullable String key, String payload, Map<String, String> headers, Instant occurredAt) {
}
