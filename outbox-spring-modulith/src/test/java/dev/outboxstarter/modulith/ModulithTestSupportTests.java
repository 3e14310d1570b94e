package dev.outboxstarter.modulith;

import java.util.UUID;

import dev.outboxstarter.modulith.shop.orders.OrderPlaced;
import dev.outboxstarter.modulith.shop.orders.Orders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.test.EnableScenarios;
import org.springframework.modulith.test.PublishedEvents;
import org.springframework.modulith.test.PublishedEventsExtension;
import org.springframework.modulith.test.Scenario;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Modulith's test support in an application whose externalized events go to the outbox: the
 * events are still published to the application as they were, so {@link PublishedEvents} and
 * {@link Scenario} see them, and each is also an outbox row.
 */
@EnableScenarios
@ExtendWith(PublishedEventsExtension.class)
class ModulithTestSupportTests extends ShopIntegrationTests {

	@Autowired
	private Orders orders;

	@Autowired
	private JdbcTemplate jdbc;

	@Test
	void publishedEventsSeesTheExternalizedEventsOfAService(PublishedEvents events) {
		String customer = UUID.randomUUID() + "-gus";
		this.orders.place(customer + "-order", customer, 2);

		assertThat(events.ofType(OrderPlaced.class).matching((event) -> event.customerId().equals(customer)))
			.extracting(OrderPlaced::line)
			.containsExactly(1, 2);
		assertThat(outboxRowsOf(customer)).isEqualTo(2);
	}

	@Test
	void aScenarioWaitsForAnExternalizedEventTheOutboxAlsoStores(Scenario scenario) {
		String customer = UUID.randomUUID() + "-hal";
		scenario.stimulate(() -> this.orders.place(customer + "-order", customer, 1))
			.andWaitForEventOfType(OrderPlaced.class)
			.matchingMappedValue(OrderPlaced::customerId, customer)
			.toArriveAndVerify((event) -> {
				assertThat(event.orderId()).isEqualTo(customer + "-order");
				assertThat(outboxRowsOf(customer)).isOne();
			});
	}

	private int outboxRowsOf(String customer) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + ShopServices.OUTBOX_TABLE + " WHERE message_key = ?",
				Integer.class, customer);
	}

}
