package dev.outboxstarter.test.shipping;

import java.util.UUID;

import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.CapturedOutboxEvents;
import dev.outboxstarter.test.PublishedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import dev.outboxstarter.test.TestOutboxRelay;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase.Replace;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.transaction.TestTransaction;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A {@code @DataJpaTest} slice on PostgreSQL with {@code @AutoConfigureOutbox}: the aggregate's events
 * are captured in the test's transaction as the application captures them, and written to the outbox
 * table when it commits.
 */
@DataJpaTest
@AutoConfigureOutbox
@AutoConfigureTestDatabase(replace = Replace.NONE)
@TestPropertySource(properties = { "outbox.table-name=kit_outbox", "spring.jpa.hibernate.ddl-auto=update" })
class AutoConfigureOutboxDataJpaTests {

	@Autowired
	private ShipmentRepository shipments;

	@Autowired
	private CapturedOutboxEvents captured;

	@Autowired
	private PublishedOutboxEvents published;

	@Autowired
	private TestOutboxRelay relay;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private PlatformTransactionManager transactionManager;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void eventOfASavedAggregateIsCapturedWithItsRouteKeyAndPayload() {
		Shipment shipment = this.shipments.save(Shipment.dispatch("1 Main Street"));

		assertThat(this.captured.ofType(ShipmentDispatched.class)).singleElement().satisfies((event) -> {
			assertThat(event.eventType()).isEqualTo("ShipmentDispatched");
			assertThat(event.transport()).isEqualTo("kafka");
			assertThat(event.destination()).isEqualTo("shipments");
			assertThat(event.key()).isEqualTo(shipment.getId().toString());
			assertThat(event.aggregateType()).isEqualTo("Shipment");
			assertThat(event.aggregateId()).isEqualTo(shipment.getId().toString());
			assertThat(event.payload()).contains("\"address\":\"1 Main Street\"");
			assertThat(event.headers()).containsEntry("tenant", "acme");
		});
		assertThat(this.captured.payloads(ShipmentDispatched.class))
			.containsExactly(new ShipmentDispatched(shipment.getId(), "1 Main Street"));
		assertThat(this.captured.ofType(ShipmentDelivered.class)).isEmpty();
	}

	@Test
	void eventOfAChangedAggregateIsCapturedAtFlushWithoutSave() {
		Shipment shipment = this.shipments.saveAndFlush(Shipment.dispatch("2 Side Street"));

		this.shipments.findById(shipment.getId()).orElseThrow().deliver();

		assertThat(this.captured.all()).extracting(RecordedOutboxEvent::eventType)
			.containsExactly("ShipmentDispatched", "shipping.delivered");
		assertThat(this.captured.ofType("shipping.delivered")).singleElement()
			.satisfies((event) -> assertThat(event.key()).isEqualTo(shipment.getId().toString()));
		assertThat(this.captured.payloads(ShipmentDelivered.class))
			.containsExactly(new ShipmentDelivered(shipment.getId()));
	}

	@Test
	void eventOfATransactionThatRolledBackIsNotCaptured() {
		TransactionTemplate inner = new TransactionTemplate(this.transactionManager);
		inner.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		inner.executeWithoutResult((status) -> {
			this.shipments.save(Shipment.dispatch("3 Lost Lane"));
			status.setRollbackOnly();
		});

		assertThat(this.captured.all()).isEmpty();
	}

	@Test
	void eventOfAnInnerTransactionThatCommittedIsCapturedWithTheCurrentTransactionsEvents() {
		TransactionTemplate inner = new TransactionTemplate(this.transactionManager);
		inner.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		UUID committed = inner.execute((status) -> this.shipments.save(Shipment.dispatch("4 First Road")).getId());
		UUID current = this.shipments.save(Shipment.dispatch("5 Second Road")).getId();

		assertThat(this.captured.payloads(ShipmentDispatched.class)).extracting(ShipmentDispatched::shipmentId)
			.containsExactly(committed, current);
	}

	@Test
	void committedEventIsWrittenToTheOutboxTableAndPublishedThroughTheRecordingTransport() {
		UUID id = this.shipments.save(Shipment.dispatch("6 Harbour Quay")).getId();
		TestTransaction.flagForCommit();
		TestTransaction.end();

		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM kit_outbox WHERE aggregate_id = ? AND event_type = ?")
			.params(id.toString(), "ShipmentDispatched")
			.query(Long.class)
			.single()).isOne();
		this.relay.drain();
		assertThat(this.published.payloads(ShipmentDispatched.class))
			.containsExactly(new ShipmentDispatched(id, "6 Harbour Quay"));
		assertThat(this.published.ofType(ShipmentDispatched.class)).singleElement()
			.satisfies((event) -> assertThat(event.destination()).isEqualTo("shipments"));
		assertThat(this.jdbc.sql("SELECT status FROM kit_outbox WHERE aggregate_id = ?")
			.param(id.toString())
			.query(String.class)
			.single()).isEqualTo("PUBLISHED");
	}

	@Test
	void drainInsideTheTestsTransactionIsRefusedWithWhatToDo() {
		this.shipments.save(Shipment.dispatch("7 Early Street"));

		assertThatIllegalStateException().isThrownBy(this.relay::drain)
			.withMessageContaining("called inside a transaction")
			.withMessageContaining("TestTransaction.end()");
	}

}
