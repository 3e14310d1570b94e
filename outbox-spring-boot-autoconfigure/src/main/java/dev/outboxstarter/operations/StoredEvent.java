package dev.outboxstarter.operations;

import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * An outbox row as operators see it.
 *
 * @param id the message id
 * @param seq insertion order
 * @param eventType the logical event type
 * @param transport the transport name
 * @param destination where it goes
 * @param key the message key, if any and when values are asked for
 * @param aggregateType type of the aggregate that raised it, if any
 * @param aggregateId id of that aggregate, if any and when values are asked for
 * @param status where it is in its life
 * @param attempts failed attempts so far
 * @param lastError what the last failed attempt reported, if any and when values are asked for
 * @param createdAt when it was written
 * @param availableAt when it is due next (pending rows)
 * @param publishedAt when it was acknowledged, if it was
 * @param payload the event as JSON, or for a payload in another format its bytes in Base64, when values
 * are asked for
 * @param headers its stored headers as JSON, when values are asked for
 * @param deliverAt for a delayed event, the time it is to be published at; {@code null} for an event
 * published at once
 * @param contentType the media type of a payload that is not JSON; {@code null} for JSON
 * @since 0.1.0
 */
public record StoredEvent(UUID id, long seq, String eventType, String transport, String destination,
		@Nullable String key, @Nullable String aggregateType, @Nullable String aggregateId, EventStatus status,
		int attempts, @Nullable String lastError, Instant createdAt, Instant availableAt,
		@Nullable Instant publishedAt, @Nullable String payload, @Nullable String headers,
		@Nullable Instant deliverAt, @Nullable String contentType) {

	/**
	 * A row of an event with a JSON payload.
	 * @param id the message id
	 * @param seq insertion order
	 * @param eventType the logical event type
	 * @param transport the transport name
	 * @param destination where it goes
	 * @param key the message key, if any and when values are asked for
	 * @param aggregateType type of the aggregate that raised it, if any
	 * @param aggregateId id of that aggregate, if any and when values are asked for
	 * @param status where it is in its life
	 * @param attempts failed attempts so far
	 * @param lastError what the last failed attempt reported, if any and when values are asked for
	 * @param createdAt when it was written
	 * @param availableAt when it is due next (pending rows)
	 * @param publishedAt when it was acknowledged, if it was
	 * @param payload the event as JSON, when values are asked for
	 * @param headers its stored headers as JSON, when values are asked for
	 * @param deliverAt for a delayed event, the time it is to be published at; {@code null} for an event
	 * published at once
	 */
	public StoredEvent(UUID id, long seq, String eventType, String transport, String destination,
			@Nullable String key, @Nullable String aggregateType, @Nullable String aggregateId, EventStatus status,
			int attempts, @Nullable String lastError, Instant createdAt, Instant availableAt,
			@Nullable Instant publishedAt, @Nullable String payload, @Nullable String headers,
			@Nullable Instant deliverAt) {
		this(id, seq, eventType, transport, destination, key, aggregateType, aggregateId, status, attempts, lastError,
				createdAt, availableAt, publishedAt, payload, headers, deliverAt, null);
	}

	/**
	 * A row of an event with a JSON payload, published at once.
	 * @param id the message id
	 * @param seq insertion order
	 * @param eventType the logical event type
	 * @param transport the transport name
	 * @param destination where it goes
	 * @param key the message key, if any and when values are asked for
	 * @param aggregateType type of the aggregate that raised it, if any
	 * @param aggregateId id of that aggregate, if any and when values are asked for
	 * @param status where it is in its life
	 * @param attempts failed attempts so far
	 * @param lastError what the last failed attempt reported, if any and when values are asked for
	 * @param createdAt when it was written
	 * @param availableAt when it is due next (pending rows)
	 * @param publishedAt when it was acknowledged, if it was
	 * @param payload the event as JSON, when values are asked for
	 * @param headers its stored headers as JSON, when values are asked for
	 */
	public StoredEvent(UUID id, long seq, String eventType, String transport, String destination,
			@Nullable String key, @Nullable String aggregateType, @Nullable String aggregateId, EventStatus status,
			int attempts, @Nullable String lastError, Instant createdAt, Instant availableAt,
			@Nullable Instant publishedAt, @Nullable String payload, @Nullable String headers) {
		this(id, seq, eventType, transport, destination, key, aggregateType, aggregateId, status, attempts, lastError,
				createdAt, availableAt, publishedAt, payload, headers, null, null);
	}

}
