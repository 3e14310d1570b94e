package dev.outboxstarter.test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * An outbox event as a test sees it: captured by a transaction ({@link CapturedOutboxEvents}) or
 * published through a recording transport ({@link PublishedOutboxEvents}).
 *
 * @since 0.1.0
 */
public final class RecordedOutboxEvent {

	private final UUID id;

	private final String eventType;

	private final String transport;

	private final String destination;

	private final @Nullable String key;

	private final @Nullable String aggregateType;

	private final @Nullable String aggregateId;

	private final String payload;

	private final Map<String, String> headers;

	private final @Nullable Instant deliverAt;

	private final JsonMapper json;

	private RecordedOutboxEvent(UUID id, String eventType, String transport, String destination, @Nullable String key,
			@Nullable String aggregateType, @Nullable String aggregateId, String payload, Map<String, String> headers,
			@Nullable Instant deliverAt, JsonMapper json) {
		this.id = id;
		this.eventType = eventType;
		this.transport = transport;
		this.destination = destination;
		this.key = key;
		this.aggregateType = aggregateType;
		this.aggregateId = aggregateId;
		this.payload = payload;
		this.headers = Map.copyOf(headers);
		this.deliverAt = deliverAt;
		this.json = json;
	}

	static RecordedOutboxEvent captured(CapturedEvent event, JsonMapper json) {
		return new RecordedOutboxEvent(event.id(), event.eventType(), event.transport(), event.destination(),
				event.messageKey(), event.aggregateType(), event.aggregateId(), event.payload(), event.headers(), event.deliverAt(),
				json);
	}

	static RecordedOutboxEvent published(String transport, OutboxMessage message, JsonMapper json) {
		return new RecordedOutboxEvent(message.id(), message.eventType(), transport, message.destination(),
				message.key(), message.aggregateType(), message.aggregateId(), message.payload(), message.headers(),
				message.deliverAt(), json);
	}

	/**
	 * The message id consumers deduplicate by.
	 * @return the id
	 */
	public UUID id() {
		return this.id;
	}

	/**
	 * The logical event type, as stored and sent.
	 * @return the event type, e.g. {@code OrderPlaced}
	 */
	public String eventType() {
		return this.eventType;
	}

	/**
	 * The transport the event is routed to.
	 * @return the transport name, e.g. {@code kafka}
	 */
	public String transport() {
		return this.transport;
	}

	/**
	 * Where the event goes: a topic, an {@code exchange/routing-key}, a local handler.
	 * @return the destination
	 */
	public String destination() {
		return this.destination;
	}

	/**
	 * The message key, which orders the event among the events of its destination.
	 * @return the key, or {@code null} when the event has none
	 */
	public @Nullable String key() {
		return this.key;
	}

	/**
	 * The type of the aggregate that raised the event.
	 * @return the aggregate type, or {@code null} when the event came from no aggregate
	 */
	public @Nullable String aggregateType() {
		return this.aggregateType;
	}

	/**
	 * The id of the aggregate that raised the event.
	 * @return the aggregate id, or {@code null} when the event came from no aggregate
	 */
	public @Nullable String aggregateId() {
		return this.aggregateId;
	}

	/**
	 * The event as the JSON the outbox stores and sends.
	 * @return the JSON payload
	 */
	public String payload() {
		return this.payload;
	}

	/**
	 * The event read back from its JSON with the application's {@link JsonMapper}, as a consumer would.
	 * @param <T> the type to read it as
	 * @param type the type to read it as, usually the event's class
	 * @return the event
	 */
	public <T> T payloadAs(Class<T> type) {
		return this.json.readValue(this.payload, type);
	}

	/**
	 * The headers captured with the event (trace context, contributed headers).
	 * @return the headers, empty when there are none
	 */
	public Map<String, String> headers() {
		return this.headers;
	}

	/**
	 * For a delayed event, the earliest time it may be published: as it was asked for, on this JVM's
	 * clock, for a captured event; as the table holds it, on the database clock, for a published one.
	 * @return the time, or {@code null} for an event published at once
	 */
	public @Nullable Instant deliverAt() {
		return this.deliverAt;
	}

	@Override
	public String toString() {
		return this.eventType + " to " + this.transport + " '" + this.destination + "'"
				+ ((this.key != null) ? " with key '" + this.key + "'" : "")
				+ ((this.deliverAt != null) ? " due at " + this.deliverAt : "") + ": " + this.payload;
	}

}
