package dev.outboxstarter;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Where one event goes. Returned by an {@link OutboxEventRouter} for event types that cannot be
 * annotated.
 *
 * @param eventType stable logical event name, stored in {@code event_type}
 * @param transport transport name, e.g. {@code kafka}
 * @param destination topic, RabbitMQ {@code exchange/routing-key}, local handler name
 * @param key message and ordering key; {@code null} uses the aggregate id
 * @param format how the message is laid out on the broker; {@code null} uses
 * {@code outbox.message-format}
 * @since 0.1.0
 */
public record OutboxRoute(String eventType, String transport, String destination, @Nullable String key,
		@Nullable MessageFormat format) {

	public OutboxRoute {
		Assert.hasText(eventType, "eventType must not be empty");
		Assert.hasText(transport, "transport must not be empty");
		Assert.hasText(destination, "destination must not be empty");
	}

	/**
	 * A route in the format of {@code outbox.message-format}.
	 * @param eventType stable logical event name, stored in {@code event_type}
	 * @param transport transport name, e.g. {@code kafka}
	 * @param destination topic, RabbitMQ {@code exchange/routing-key}, local handler name
	 * @param key message and ordering key; {@code null} uses the aggregate id
	 */
	public OutboxRoute(String eventType, String transport, String destination, @Nullable String key) {
		this(eventType, transport, destination, key, null);
	}

	/**
	 * This route with a message format of its own.
	 * @param format how the message is laid out on the broker
	 * @return the route in that format
	 */
	public OutboxRoute withFormat(MessageFormat format) {
		return new OutboxRoute(this.eventType, this.transport, this.destination, this.key, format);
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

	/**
	 * A route to a RabbitMQ exchange.
	 * @param eventType stable logical event name
	 * @param exchange the exchange, empty for the default exchange
	 * @param routingKey the routing key
	 * @param key message and ordering key, or {@code null} for the aggregate id
	 * @return the route
	 */
	public static OutboxRoute rabbit(String eventType, String exchange, String routingKey, @Nullable String key) {
		return new OutboxRoute(eventType, "rabbit", exchange + "/" + routingKey, key);
	}

	/**
	 * A route to an {@code @OutboxHandler} method of this application.
	 * @param eventType stable logical event name
	 * @param handler the handler's name
	 * @param key message and ordering key, or {@code null} for the aggregate id
	 * @return the route
	 */
	public static OutboxRoute local(String eventType, String handler, @Nullable String key) {
		return new OutboxRoute(eventType, "local", handler, key);
	}

}
