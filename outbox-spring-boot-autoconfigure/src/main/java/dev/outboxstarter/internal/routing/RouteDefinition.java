package dev.outboxstarter.internal.routing;

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
 */
public record RouteDefinition(@Nullable String eventType, @Nullable String transport, @Nullable String destination,
		@Nullable String key, @Nullable String format) {

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
