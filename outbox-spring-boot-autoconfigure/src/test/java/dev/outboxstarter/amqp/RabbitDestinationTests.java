package dev.outboxstarter.amqp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a RabbitMQ destination splits into exchange and routing key (the broker side of each form is in
 * {@code dev.outboxstarter.it.RabbitOutboxIntegrationTests}).
 */
class RabbitDestinationTests {

	@Test
	void exchangeAndRoutingKeyAreSplitAtTheFirstSlash() {
		assertThat(RabbitDestination.parse("orders/order.placed")).isEqualTo(new RabbitDestination("orders", "order.placed"));
		assertThat(RabbitDestination.parse("orders/eu/order.placed"))
			.isEqualTo(new RabbitDestination("orders", "eu/order.placed"));
	}

	@Test
	void leadingSlashMeansTheDefaultExchange() {
		assertThat(RabbitDestination.parse("/invoices")).isEqualTo(new RabbitDestination("", "invoices"));
	}

	@Test
	void noSlashMeansAnEmptyRoutingKey() {
		assertThat(RabbitDestination.parse("notifications")).isEqualTo(new RabbitDestination("notifications", ""));
		assertThat(RabbitDestination.parse("notifications/")).isEqualTo(new RabbitDestination("notifications", ""));
	}

}
