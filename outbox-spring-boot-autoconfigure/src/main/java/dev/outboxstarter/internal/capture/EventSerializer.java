package dev.outboxstarter.internal.capture;

import java.nio.charset.StandardCharsets;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.internal.routing.EventRoutes;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serializes outbox events to the JSON payload of their rows, refusing one that cannot be serialized
 * or is larger than a payload may be.
 */
public final class EventSerializer {

	private final JsonMapper json;

	private final long maxPayloadBytes;

	/**
	 * Creates the serializer.
	 * @param json serializes payloads
	 * @param maxPayloadBytes largest serialized payload accepted, in bytes
	 */
	public EventSerializer(JsonMapper json, long maxPayloadBytes) {
		this.json = json;
		this.maxPayloadBytes = maxPayloadBytes;
	}

	/**
	 * Serializes an event.
	 * @param event the event
	 * @param routes its routes, which name it in a refusal
	 * @return its payload
	 * @throws OutboxCaptureException if it cannot be serialized or its payload is too large
	 */
	String serialize(Object event, EventRoutes routes) {
		String payload;
		try {
			payload = this.json.writeValueAsString(event);
		}
		catch (RuntimeException ex) {
			throw new OutboxCaptureException(
					routes.describeEvent() + " cannot be serialized to JSON: " + ex.getMessage(), ex);
		}
		// A UTF-16 char is at most 3 UTF-8 bytes: most payloads are measured without encoding them.
		if (payload.length() * 3L <= this.maxPayloadBytes) {
			return payload;
		}
		long size = payload.getBytes(StandardCharsets.UTF_8).length;
		if (size > this.maxPayloadBytes) {
			throw new OutboxCaptureException(routes.describeEvent() + " is " + size
					+ " bytes as JSON, more than outbox.max-payload-size (" + this.maxPayloadBytes
					+ " bytes): make the event smaller or raise the limit");
		}
		return payload;
	}

}
