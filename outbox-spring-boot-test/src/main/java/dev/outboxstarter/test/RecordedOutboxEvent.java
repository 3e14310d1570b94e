package dev.outboxstarter.test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
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

	private final @Nullable String contentType;

	private final PayloadReader reader;

	private RecordedOutboxEvent(UUID id, String eventType, String transport, String destination, @Nullable String key,
			@Nullable String aggregateType, @Nullable String aggregateId, String payload, Map<String, String> headers,
			@Nullable Instant deliverAt, @Nullable String contentType, PayloadReader reader) {
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
		this.contentType = contentType;
		this.reader = reader;
	}

	static RecordedOutboxEvent captured(CapturedEvent event, PayloadReader reader) {
		return new RecordedOutboxEvent(event.id(), event.eventType(), event.transport(), event.destination(),
				event.messageKey(), event.aggregateType(), event.aggregateId(), event.payload(), event.headers(), event.deliverAt(),
				event.contentType(), reader);
	}

	static RecordedOutboxEvent published(String transport, OutboxMessage message, PayloadReader reader) {
		return new RecordedOutboxEvent(message.id(), message.eventType(), transport, message.destination(),
				message.key(), message.aggregateType(), message.aggregateId(), message.payload(), message.headers(),
				message.deliverAt(), message.contentType(), reader);
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
	 * The event as the outbox stores it: the JSON it sends, or, for a payload in another format (see
	 * {@link #contentType()}), the bytes it sends in Base64.
	 * @return the stored payload
	 */
	public String payload() {
		return this.payload;
	}

	/**
	 * The media type of a payload that a payload serializer wrote in a format other than JSON, such as
	 * Avro or Protobuf.
	 * @return the content type, or {@code null} for a JSON payload
	 */
	public @Nullable String contentType() {
		return this.contentType;
	}

	/**
	 * The payload as the transport sends it: the JSON's UTF-8 bytes, or the bytes a payload serializer
	 * wrote.
	 * @return the bytes, a copy of their own for each call
	 */
	public byte[] payloadBytes() {
		return (this.contentType != null) ? Base64.getDecoder().decode(this.payload)
				: this.payload.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The event read back, as a consumer would: from its JSON with the application's {@link JsonMapper},
	 * or, for a payload in another format, by the {@link OutboxPayloadSerializer} bean that
	 * {@linkplain OutboxPayloadSerializer#writes(String) writes} its {@linkplain #contentType() content
	 * type} (the first, in the beans' order, when several do).
	 * @param <T> the type to read it as
	 * @param type the type to read it as, usually the event's class
	 * @return the event
	 * @throws IllegalStateException when no payload serializer writes the payload's content type, or the
	 * one that does cannot read its payloads back; {@link #payloadBytes()} still gives the bytes
	 */
	public <T> T payloadAs(Class<T> type) {
		return this.reader.read(this, type);
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
				+ ((this.deliverAt != null) ? " due at " + this.deliverAt : "") + ": "
				+ ((this.contentType != null) ? this.contentType + " payload " + this.payload : this.payload);
	}

}
