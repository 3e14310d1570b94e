package dev.outboxstarter.amqp;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Configuration of the outbox's RabbitMQ transport. The connection itself, and publisher confirms and
 * returns, are configured with {@code spring.rabbitmq.*}.
 */
@ConfigurationProperties("outbox.rabbit")
class OutboxRabbitProperties {

	/**
	 * Whether the RabbitMQ transport ('rabbit') is available when the application has a RabbitMQ
	 * connection factory. It requires 'spring.rabbitmq.publisher-confirm-type=correlated' and
	 * 'spring.rabbitmq.publisher-returns=true'; switch it off when the outbox does not publish to
	 * RabbitMQ and those settings are unwanted.
	 */
	private final boolean enabled;

	/**
	 * Exchanges the outbox declares, each time it connects to the broker. Only the exchanges listed
	 * here are declared; queues and bindings are the application's. Exchange names must not contain
	 * '/', which separates the exchange from the routing key in a destination.
	 */
	private final List<Exchange> exchanges;

	public OutboxRabbitProperties(@DefaultValue("true") boolean enabled, @Nullable List<Exchange> exchanges) {
		this.enabled = enabled;
		this.exchanges = (exchanges != null) ? List.copyOf(exchanges) : List.of();
		for (int i = 0; i < this.exchanges.size(); i++) {
			checkExchangeName(this.exchanges.get(i).getName(), "outbox.rabbit.exchanges[" + i + "].name");
		}
	}

	private static void checkExchangeName(@Nullable String name, String property) {
		Assert.isTrue(StringUtils.hasText(name), () -> property + " must not be empty");
		Assert.isTrue(name.indexOf('/') < 0, () -> property + ": '" + name
				+ "' contains '/', which separates the exchange from the routing key in a destination; exchange "
				+ "names with '/' are not supported");
		Assert.isTrue(!name.startsWith("amq."),
				() -> property + ": '" + name + "' starts with 'amq.', a prefix RabbitMQ reserves for itself");
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public List<Exchange> getExchanges() {
		return this.exchanges;
	}

	/**
	 * An exchange the outbox declares.
	 */
	public static class Exchange {

		/**
		 * Name of the exchange.
		 */
		private final @Nullable String name;

		/**
		 * Type of the exchange.
		 */
		private final ExchangeType type;

		/**
		 * Whether the exchange survives a broker restart.
		 */
		private final boolean durable;

		public Exchange(@Nullable String name, @DefaultValue("topic") ExchangeType type,
				@DefaultValue("true") boolean durable) {
			this.name = name;
			this.type = type;
			this.durable = durable;
		}

		public @Nullable String getName() {
			return this.name;
		}

		public ExchangeType getType() {
			return this.type;
		}

		public boolean isDurable() {
			return this.durable;
		}

	}

	/**
	 * Type of an exchange.
	 */
	public enum ExchangeType {

		/** Routes by pattern on the routing key. */
		TOPIC("topic"),

		/** Routes by exact routing key. */
		DIRECT("direct"),

		/** Routes to every bound queue, ignoring the routing key. */
		FANOUT("fanout"),

		/** Routes by message headers, ignoring the routing key. */
		HEADERS("headers");

		private final String amqpName;

		ExchangeType(String amqpName) {
			this.amqpName = amqpName;
		}

		/**
		 * The type's AMQP name.
		 * @return e.g. {@code topic}
		 */
		public String amqpName() {
			return this.amqpName;
		}

	}

}
