package dev.outboxstarter.test.shipping;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.operations.OutboxMonitoring;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same slice without {@code @AutoConfigureOutbox}: {@code @DataJpaTest} auto-configures JPA only,
 * so the aggregate's outbox event is published as a plain application event and nothing captures
 * it. This is what {@link AutoConfigureOutboxDataJpaTests} would silently test without the annotation.
 */
@DataJpaTest
@RecordApplicationEvents
class WithoutAutoConfigureOutboxDataJpaTests {

	@Autowired
	private ShipmentRepository shipments;

	@Autowired
	private ApplicationContext context;

	@Test
	void outboxEventOfASavedAggregateIsOnlyAnApplicationEvent(ApplicationEvents events) {
		Shipment shipment = this.shipments.saveAndFlush(Shipment.dispatch("1 Main Street"));

		assertThat(events.stream(ShipmentDispatched.class))
			.containsExactly(new ShipmentDispatched(shipment.getId(), "1 Main Street"));
		assertThat(this.context.getBeanProvider(OutboxMonitoring.class).getIfAvailable()).isNull();
		assertThat(this.context.getBeanProvider(Outbox.class).getIfAvailable()).isNull();
	}

}
