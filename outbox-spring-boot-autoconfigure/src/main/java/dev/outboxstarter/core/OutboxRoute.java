package dev.outboxstarter.core;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Where one event goes. Returned by an {@link OutboxEventRouter} for event types that cannot be
 * annotated.
 *
 * @param eventType stable logical event name, stored in {@code event_type}
 * @param transport transport name, e.g. {@code kafka}
 * @param destination topic (or the transport's equivalent)
 * @param key message and ordering key; {@code null} uses the aggregate id
 */
public record OutboxRoute(String eventType, String transport, String destination, @Nullable String key) {

	public OutboxRoute {
		Assert.hasText(eventType, "eventType must not be empty");
		Assert.hasText(transport, "transport must not be empty");
		Assert.hasText(destination, "destination must not be empty");
	}

	/**
	 * A route to a Kafka topic.
	 * @param eventType stable logical event name
	 * @param topic the topic
	 * @param key message key, or {@code null} for the aggregate id
	 * @return the route
	 */
	public static OutboxRoute kafka(String eventType, String topic, @Nullable String key) {
		return new OutboxRoute(eventType, "kafka", topic, key);
	}

}
