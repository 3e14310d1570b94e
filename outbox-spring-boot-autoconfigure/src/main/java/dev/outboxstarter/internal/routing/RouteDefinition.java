package dev.outboxstarter.internal.routing;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A route configured for an event class (the {@code outbox.routes} properties). Values left
 * {@code null} fall back to the class's {@code @OutboxEvent} annotation, then to the defaults.
 *
 * @param eventType logical event type
 * @param transport transport name
 * @param destination topic or the transport's equivalent
 * @param key SpEL expression against the event that gives the message key
 * @param format message format name ({@code outbox}, {@code cloudevents})
 * @param delay how long after they are raised its events are published at the earliest
 * @param delayHoldsKey whether a delayed event holds back the later events of its key
 * @param payloadFormat payload format name ({@code json}, or a payload serializer's)
 */
public record RouteDefinition(@Nullable String eventType, @Nullable String transport, @Nullable String destination,
		@Nullable String key, @Nullable String format, @Nullable Duration delay, @Nullable Boolean delayHoldsKey,
		@Nullable String payloadFormat) {

	/**
	 * A route definition in the payload format of its event's type.
	 * @param eventType logical event type
	 * @param transport transport name
	 * @param destination topic or the transport's equivalent
	 * @param key SpEL expression against the event that gives the message key
	 * @param format message format name ({@code outbox}, {@code cloudevents})
	 * @param delay how long after they are raised its events are published at the earliest
	 * @param delayHoldsKey whether a delayed event holds back the later events of its key
	 */
	public RouteDefinition(@Nullable String eventType, @Nullable String transport, @Nullable String destination,
			@Nullable String key, @Nullable String format, @Nullable Duration delay, @Nullable Boolean delayHoldsKey) {
		this(eventType, transport, destination, key, format, delay, delayHoldsKey, null);
	}

	/**
	 * A route definition without a delay.
	 * @param eventType logical event type
	 * @param transport transport name
	 * @param destination topic or the transport's equivalent
	 * @param key SpEL expression against the event that gives the message key
	 * @param format message format name ({@code outbox}, {@code cloudevents})
	 */
	public RouteDefinition(@Nullable String eventType, @Nullable String transport, @Nullable String destination,
			@Nullable String key, @Nullable String format) {
		this(eventType, transport, destination, key, format, null, null);
	}

	/**
	 * A route definition in the default message format.
	 * @param eventType logical event type
	 * @param transport transport name
	 * @param destination topic or the transport's equivalent
	 * @param key SpEL expression against the event that gives the message key
	 */
	public RouteDefinition(@Nullable String eventType, @Nullable String transport, @Nullable String destination,
			@Nullable String key) {
		this(eventType, transport, destination, key, null);
	}

}
