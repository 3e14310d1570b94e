package dev.outboxstarter.amqp;

import org.springframework.util.Assert;

/**
 * Where a RabbitMQ outbox message goes: an exchange and a routing key, written as one destination
 * string {@code <exchange>/<routing key>} and split at the first {@code '/'}.
 * <ul>
 * <li>{@code orders/order.placed}: exchange {@code orders}, routing key {@code order.placed};</li>
 * <li>{@code /invoices}: the default exchange, routing key {@code invoices} (the queue of that name);</li>
 * <li>{@code orders}: exchange {@code orders} with an empty routing key (e.g. a fanout exchange);</li>
 * <li>{@code orders/eu/order.placed}: exchange {@code orders}, routing key {@code eu/order.placed}.</li>
 * </ul>
 * Exchange names that contain {@code '/'} are therefore not supported; routing keys may contain it.
 *
 * @param exchange the exchange name, empty for the default exchange
 * @param routingKey the routing key, possibly empty
 */
record RabbitDestination(String exchange, String routingKey) {

	public RabbitDestination {
		Assert.notNull(exchange, "exchange must not be null");
		Assert.notNull(routingKey, "routingKey must not be null");
		Assert.isTrue(exchange.indexOf('/') < 0, () -> "exchange name '" + exchange + "' must not contain '/'");
	}

	/**
	 * Splits a destination at its first {@code '/'}.
	 * @param destination {@code <exchange>/<routing key>}, {@code /<routing key>} or {@code <exchange>}
	 * @return the exchange and routing key
	 */
	public static RabbitDestination parse(String destination) {
		Assert.notNull(destination, "destination must not be null");
		int slash = destination.indexOf('/');
		if (slash < 0) {
			return new RabbitDestination(destination, "");
		}
		return new RabbitDestination(destination.substring(0, slash), destination.substring(slash + 1));
	}

	/**
	 * The exchange as log and error messages show it.
	 * @return the quoted name, or {@code the default exchange}
	 */
	public String describeExchange() {
		return describeExchange(this.exchange);
	}

	static String describeExchange(String exchange) {
		return (exchange == null || exchange.isEmpty()) ? "the default exchange" : "exchange '" + exchange + "'";
	}

}
