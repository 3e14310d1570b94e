package dev.outboxstarter.internal.capture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.internal.routing.ResolvedRoute;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serializes outbox events to the payloads of their rows: JSON by default, or the format of a payload
 * serializer that a route names or that claims the event's type. Refuses an event that cannot be
 * serialized or is larger than a payload may be.
 */
public final class EventSerializer {

	/** The name of the default format, the application's {@code JsonMapper}. */
	private static final String JSON = "json";

	/** The width of the {@code content_type} column. */
	private static final int MAX_CONTENT_TYPE_LENGTH = 255;

	private final JsonMapper json;

	private final long maxPayloadBytes;

	private final Map<String, OutboxPayloadSerializer> formats;

	/** The serializer of events whose route names no format and whose type none claims; null for JSON. */
	private final @Nullable OutboxPayloadSerializer defaultFormat;

	/** Whether a transport, by name, sends binary payloads as they are. */
	private final Predicate<String> sendsBinaryPayloads;

	/** Which serializer claims each type seen so far; empty for none. */
	private final Map<Class<?>, Optional<OutboxPayloadSerializer>> claims = new ConcurrentHashMap<>();

	/**
	 * Creates a serializer of JSON payloads only.
	 * @param json serializes payloads
	 * @param maxPayloadBytes largest serialized payload accepted, in bytes
	 */
	public EventSerializer(JsonMapper json, long maxPayloadBytes) {
		this(json, maxPayloadBytes, List.of(), JSON, (transport) -> false);
	}

	/**
	 * Creates the serializer.
	 * @param json serializes JSON payloads
	 * @param maxPayloadBytes largest serialized payload accepted, in bytes
	 * @param serializers the other payload formats, in the order they claim types
	 * @param defaultFormat the format of events whose route names none and whose type none claims
	 * ({@code outbox.payload-format})
	 * @param sendsBinaryPayloads whether a transport, by name, sends binary payloads as they are
	 * (see {@link dev.outboxstarter.spi.OutboxTransport#sendsBinaryPayloads()})
	 * @throws OutboxConfigurationException when two serializers have one name, one is named
	 * {@value #JSON}, or the default format is none of them
	 */
	public EventSerializer(JsonMapper json, long maxPayloadBytes, List<OutboxPayloadSerializer> serializers,
			String defaultFormat, Predicate<String> sendsBinaryPayloads) {
		this.json = json;
		this.maxPayloadBytes = maxPayloadBytes;
		this.sendsBinaryPayloads = sendsBinaryPayloads;
		Map<String, OutboxPayloadSerializer> formats = new LinkedHashMap<>();
		for (OutboxPayloadSerializer serializer : serializers) {
			String name = serializer.format();
			if (JSON.equals(name)) {
				throw new OutboxConfigurationException("The payload serializer " + serializer + " is named '" + JSON
						+ "', the outbox's own format", "Give it another format name");
			}
			OutboxPayloadSerializer other = formats.putIfAbsent(name, serializer);
			if (other != null) {
				throw new OutboxConfigurationException("Two payload serializers are named '" + name + "': " + other
						+ " and " + serializer, "Keep one of them, or give one another format name");
			}
		}
		this.formats = formats;
		checkConfigured("outbox.payload-format", defaultFormat);
		this.defaultFormat = formats.get(defaultFormat);
	}

	/**
	 * Fails on a configured payload format that is not there.
	 * @param property the property that names it
	 * @param name the format
	 * @throws OutboxConfigurationException when there is no such format
	 */
	public void checkConfigured(String property, String name) {
		if (!JSON.equals(name) && !this.formats.containsKey(name)) {
			throw new OutboxConfigurationException(property + " '" + name + "' is not a payload format",
					"Use " + known() + (this.formats.isEmpty()
							? ", or add a module that brings other formats, such as outbox-schema-registry for avro "
									+ "and protobuf (with outbox.schema-registry.url set)"
							: ""));
		}
	}

	private String known() {
		List<String> names = new ArrayList<>();
		names.add("'" + JSON + "'");
		this.formats.keySet().forEach((name) -> names.add("'" + name + "'"));
		return String.join(", ", names);
	}

	/**
	 * Serializes an event for each of its routes: once for all the routes in JSON, once per route in
	 * another format, whose bytes may depend on the destination (a registry subject named after the
	 * topic).
	 * @param event the event
	 * @param routes its routes, which name it in a refusal
	 * @return its payloads, in the order of its routes
	 * @throws OutboxCaptureException if it cannot be serialized or a payload is too large
	 */
	List<Payload> serialize(Object event, EventRoutes routes) {
		List<ResolvedRoute> resolved = routes.routes();
		if (resolved.size() == 1) {
			return List.of(serialize(event, routes, resolved.get(0)));
		}
		List<Payload> payloads = new ArrayList<>(resolved.size());
		Payload json = null;
		for (ResolvedRoute route : resolved) {
			OutboxPayloadSerializer serializer = serializerFor(event.getClass(), routes, route);
			if (serializer != null) {
				payloads.add(binary(serializer, event, routes, route));
			}
			else {
				if (json == null) {
					json = json(event, routes);
				}
				payloads.add(json);
			}
		}
		return payloads;
	}

	private Payload serialize(Object event, EventRoutes routes, ResolvedRoute route) {
		OutboxPayloadSerializer serializer = serializerFor(event.getClass(), routes, route);
		return (serializer != null) ? binary(serializer, event, routes, route) : json(event, routes);
	}

	private @Nullable OutboxPayloadSerializer serializerFor(Class<?> type, EventRoutes routes, ResolvedRoute route) {
		String named = route.payloadFormat();
		if (named != null) {
			if (JSON.equals(named)) {
				return null;
			}
			OutboxPayloadSerializer serializer = this.formats.get(named);
			if (serializer == null) {
				throw new OutboxCaptureException(routes.describeEvent() + " asks for the payload format '" + named
						+ "', which does not exist: use " + known() + " in @OutboxEvent(payloadFormat = ...) or "
						+ "outbox.routes[" + type.getName() + "].payload-format");
			}
			return serializer;
		}
		if (this.formats.isEmpty()) {
			return null;
		}
		return this.claims.computeIfAbsent(type, this::claimOf).orElse(this.defaultFormat);
	}

	private Optional<OutboxPayloadSerializer> claimOf(Class<?> type) {
		return this.formats.values().stream().filter((serializer) -> serializer.serializesByDefault(type)).findFirst();
	}

	private Payload json(Object event, EventRoutes routes) {
		String payload;
		try {
			payload = this.json.writeValueAsString(event);
		}
		catch (RuntimeException ex) {
			throw new OutboxCaptureException(
					routes.describeEvent() + " cannot be serialized to JSON: " + ex.getMessage(), ex);
		}
		// A UTF-16 char is at most 3 UTF-8 bytes: most payloads are measured without encoding them.
		if (payload.length() * 3L > this.maxPayloadBytes) {
			checkSize(routes, payload.getBytes(StandardCharsets.UTF_8).length, "JSON");
		}
		return new Payload(payload, null, null);
	}

	private Payload binary(OutboxPayloadSerializer serializer, Object event, EventRoutes routes,
			ResolvedRoute route) {
		if (!this.sendsBinaryPayloads.test(route.transport())) {
			throw new OutboxCaptureException(routes.describeEvent() + " would be written as " + serializer.format()
					+ ", but transport '" + route.transport() + "' sends JSON payloads only: route it with "
					+ "payloadFormat \"json\" (@OutboxEvent(payloadFormat = \"json\") or outbox.routes["
					+ event.getClass().getName() + "].payload-format=json), or to a transport that sends binary "
					+ "payloads (kafka, rabbit)");
		}
		SerializedPayload serialized;
		try {
			serialized = serializer.serialize(event,
					new PayloadTarget(route.eventType(), route.transport(), route.destination()));
		}
		catch (RuntimeException ex) {
			throw new OutboxCaptureException(routes.describeEvent() + " cannot be serialized as "
					+ serializer.format() + " for " + route.transport() + " '" + route.destination() + "': "
					+ ex.getMessage(), ex);
		}
		if (serialized == null) {
			throw new OutboxCaptureException(routes.describeEvent() + " cannot be serialized as "
					+ serializer.format() + ": its serializer " + serializer + " returned nothing");
		}
		if (serialized.contentType().length() > MAX_CONTENT_TYPE_LENGTH) {
			throw new OutboxCaptureException(routes.describeEvent() + " was serialized as " + serializer.format()
					+ " with a content type longer than " + MAX_CONTENT_TYPE_LENGTH + " characters, which its row "
					+ "cannot hold: '" + serialized.contentType() + "'");
		}
		checkSize(routes, serialized.bytes().length, serializer.format());
		return new Payload(Base64.getEncoder().encodeToString(serialized.bytes()), serialized.contentType(),
				serialized.schema());
	}

	private void checkSize(EventRoutes routes, long size, String format) {
		if (size > this.maxPayloadBytes) {
			throw new OutboxCaptureException(routes.describeEvent() + " is " + size + " bytes as " + format
					+ ", more than outbox.max-payload-size (" + this.maxPayloadBytes
					+ " bytes): make the event smaller or raise the limit");
		}
	}

	/**
	 * A payload as its row stores it.
	 *
	 * @param text the JSON, or the bytes of another format in Base64
	 * @param contentType the media type of another format, {@code null} for JSON
	 * @param schema a URI of the schema another format wrote it with, if any
	 */
	record Payload(String text, @Nullable String contentType, @Nullable String schema) {

	}

}
