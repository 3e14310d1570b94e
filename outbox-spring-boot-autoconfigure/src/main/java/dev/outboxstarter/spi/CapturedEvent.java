package dev.outboxstarter.spi;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * An event captured in a business transaction, as it is inserted into the outbox table.
 *
 * @param id the message id (a UUIDv7)
 * @param aggregateType type of the aggregate that raised it, if any
 * @param aggregateId id of that aggregate, if any
 * @param eventType the logical event type
 * @param transport the transport name
 * @param destination topic or the transport's equivalent
 * @param messageKey message and ordering key, if any
 * @param payload the event as JSON; for a payload in another format, its bytes in Base64
 * @param headers headers to send with it
 * @param deliverAt the earliest time it may be published (on this JVM's clock), {@code null} for at once:
 * a delayed event, which only the relay publishes
 * @param delayHoldsKey whether, delayed, it holds back the events of its key committed after it
 * @param contentType the media type of a payload that is not JSON (see {@link OutboxPayloadSerializer});
 * {@code null} for JSON
 * @since 0.1.0
 */
public record CapturedEvent(UUID id, @Nullable String aggregateType, @Nullable String aggregateId, String eventType,
		String transport, String destination, @Nullable String messageKey, String payload,
		Map<String, String> headers, @Nullable Instant deliverAt, boolean delayHoldsKey, @Nullable String contentType) {

	/**
	 * An event with a JSON payload.
	 * @param id the message id (a UUIDv7)
	 * @param aggregateType type of the aggregate that raised it, if any
	 * @param aggregateId id of that aggregate, if any
	 * @param eventType the logical event type
	 * @param transport the transport name
	 * @param destination topic or the transport's equivalent
	 * @param messageKey message and ordering key, if any
	 * @param payload the event as JSON
	 * @param headers headers to send with it
	 * @param deliverAt the earliest time it may be published (on this JVM's clock), {@code null} for at once
	 * @param delayHoldsKey whether, delayed, it holds back the events of its key committed after it
	 */
	public CapturedEvent(UUID id, @Nullable String aggregateType, @Nullable String aggregateId, String eventType,
			String transport, String destination, @Nullable String messageKey, String payload,
			Map<String, String> headers, @Nullable Instant deliverAt, boolean delayHoldsKey) {
		this(id, aggregateType, aggregateId, eventType, transport, destination, messageKey, payload, headers,
				deliverAt, delayHoldsKey, null);
	}

	/**
	 * An event with a JSON payload, published at once.
	 * @param id the message id (a UUIDv7)
	 * @param aggregateType type of the aggregate that raised it, if any
	 * @param aggregateId id of that aggregate, if any
	 * @param eventType the logical event type
	 * @param transport the transport name
	 * @param destination topic or the transport's equivalent
	 * @param messageKey message and ordering key, if any
	 * @param payload the serialized event
	 * @param headers headers to send with it
	 */
	public CapturedEvent(UUID id, @Nullable String aggregateType, @Nullable String aggregateId, String eventType,
			String transport, String destination, @Nullable String messageKey, String payload,
			Map<String, String> headers) {
		this(id, aggregateType, aggregateId, eventType, transport, destination, messageKey, payload, headers, null,
				false, null);
	}

	/**
	 * Whether it is a delayed event, which waits in the table for its time and is published by the relay.
	 * @return whether it has a delivery time
	 */
	public boolean isDelayed() {
		return this.deliverAt != null;
	}

}
