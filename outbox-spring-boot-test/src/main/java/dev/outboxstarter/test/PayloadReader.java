package dev.outboxstarter.test;

import java.util.List;

import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reads recorded payloads back into events: JSON with the application's {@link JsonMapper}, a payload
 * in another format with the first {@link OutboxPayloadSerializer} bean that
 * {@linkplain OutboxPayloadSerializer#writes(String) writes} its content type.
 */
final class PayloadReader {

	private final JsonMapper json;

	/** Looked up when read: a test reads payloads long after the context has started. */
	private final ObjectProvider<OutboxPayloadSerializer> serializers;

	PayloadReader(JsonMapper json, ObjectProvider<OutboxPayloadSerializer> serializers) {
		this.json = json;
		this.serializers = serializers;
	}

	<T> T read(RecordedOutboxEvent event, Class<T> type) {
		String contentType = event.contentType();
		if (contentType == null) {
			return this.json.readValue(event.payload(), type);
		}
		List<OutboxPayloadSerializer> all = this.serializers.orderedStream().toList();
		OutboxPayloadSerializer serializer = all.stream()
			.filter((candidate) -> candidate.writes(contentType))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("Cannot read the payload of " + event.eventType() + " "
					+ event.id() + " as " + type.getName() + ": its content type is '" + contentType
					+ "', and no OutboxPayloadSerializer bean writes it (formats: "
					+ all.stream().map(OutboxPayloadSerializer::format).toList() + "). Have the serializer of "
					+ "that format say so (writes(String)) and read its payloads back (deserialize), or assert on "
					+ "payloadBytes()"));
		try {
			return serializer.deserialize(event.payloadBytes(), type,
					new PayloadTarget(event.eventType(), event.transport(), event.destination()));
		}
		catch (UnsupportedOperationException ex) {
			throw new IllegalStateException("Cannot read the payload of " + event.eventType() + " " + event.id()
					+ " as " + type.getName() + ": the payload format '" + serializer.format() + "' writes '"
					+ contentType + "' but does not read its payloads back (deserialize); assert on payloadBytes()",
					ex);
		}
	}

}
