package dev.outboxstarter.spi;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
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
 * @param payload the event as JSON; for a payload in another format, its bytes in Base64 (send
 * {@link #payloadBytes()})
 * @param headers headers captured with the event
 * @param occurredAt when the event was written
 * @param deliverAt for a delayed event, the time it was to be published at, on the database clock;
 * {@code null} for an event published at once
 * @param contentType the media type of a payload that is not JSON (see {@link OutboxPayloadSerializer});
 * {@code null} for JSON
 * @since 0.1.0
 */
public record OutboxMessage(UUID id, String eventType, @Nullable String aggregateType, @Nullable String aggregateId,
		String destination, @Nullable String key, String payload, Map<String, String> headers, Instant occurredAt,
		@Nullable Instant deliverAt, @Nullable String contentType) {

	/**
	 * A message of a JSON payload.
	 * @param id the message id; send it so consumers can deduplicate
	 * @param eventType the logical event type
	 * @param aggregateType type of the aggregate that raised it, if any
	 * @param aggregateId id of that aggregate, if any
	 * @param destination topic or the transport's equivalent
	 * @param key message key, if any
	 * @param payload the event as JSON
	 * @param headers headers captured with the event
	 * @param occurredAt when the event was written
	 * @param deliverAt for a delayed event, the time it was to be published at, on the database clock;
	 * {@code null} for an event published at once
	 */
	public OutboxMessage(UUID id, String eventType, @Nullable String aggregateType, @Nullable String aggregateId,
			String destination, @Nullable String key, String payload, Map<String, String> headers,
			Instant occurredAt, @Nullable Instant deliverAt) {
		this(id, eventType, aggregateType, aggregateId, destination, key, payload, headers, occurredAt, deliverAt,
				null);
	}

	/**
	 * A message of an event published at once.
	 * @param id the message id; send it so consumers can deduplicate
	 * @param eventType the logical event type
	 * @param aggregateType type of the aggregate that raised it, if any
	 * @param aggregateId id of that aggregate, if any
	 * @param destination topic or the transport's equivalent
	 * @param key message key, if any
	 * @param payload the event as JSON
	 * @param headers headers captured with the event
	 * @param occurredAt when the event was written
	 */
	public OutboxMessage(UUID id, String eventType, @Nullable String aggregateType, @Nullable String aggregateId,
			String destination, @Nullable String key, String payload, Map<String, String> headers,
			Instant occurredAt) {
		this(id, eventType, aggregateType, aggregateId, destination, key, payload, headers, occurredAt, null);
	}

	/**
	 * The same message with other headers.
	 * @param headers the headers
	 * @return the message
	 */
	public OutboxMessage withHeaders(Map<String, String> headers) {
		return new OutboxMessage(this.id, this.eventType, this.aggregateType, this.aggregateId, this.destination,
				this.key, this.payload, headers, this.occurredAt, this.deliverAt, this.contentType);
	}

	/**
	 * The payload as it is sent: the JSON's UTF-8 bytes, or the bytes a payload serializer wrote.
	 * @return the bytes
	 * @throws IllegalStateException when a binary payload is not Base64, which only a row changed
	 * outside the outbox can hold
	 */
	public byte[] payloadBytes() {
		if (this.contentType == null) {
			return this.payload.getBytes(StandardCharsets.UTF_8);
		}
		try {
			return Base64.getDecoder().decode(this.payload);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("The " + this.contentType + " payload of outbox message " + this.id
					+ " is not Base64, as a binary payload is stored: was its row changed outside the outbox?", ex);
		}
	}

	/**
	 * When the event became due for publishing: its delivery time if it was delayed, else when it was
	 * written. Commit-to-acknowledgement latency counts from here.
	 * @return the time, on the database clock
	 */
	public Instant dueAt() {
		return (this.deliverAt != null && this.deliverAt.isAfter(this.occurredAt)) ? this.deliverAt : this.occurredAt;
	}

}
