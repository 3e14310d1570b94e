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
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The whole application on PostgreSQL with {@code @AutoConfigureOutbox}: its service commits, the
 * fast path publishes, and the recording transport stands in for Kafka, whose transport the
 * application has but whose broker the test does not run.
 */
@SpringBootTest(properties = { "outbox.table-name=kit_app_outbox", "spring.jpa.hibernate.ddl-auto=update",
		"spring.kafka.bootstrap-servers=127.0.0.1:1" })
@AutoConfigureOutbox
class AutoConfigureOutboxApplicationTests {

	@Autowired
	private ShippingService shipping;

	@Autowired
	private CapturedOutboxEvents captured;

	@Autowired
	private PublishedOutboxEvents published;

	@Autowired
	private TestOutboxRelay relay;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void committedEventIsPublishedThroughTheRecordingTransportInsteadOfKafka(ApplicationContext context) {
		UUID id = this.shipping.dispatch("1 Main Street");

		RecordedOutboxEvent event = this.published.await(ShipmentDispatched.class,
				(dispatched) -> dispatched.shipmentId().equals(id));
		assertThat(event.transport()).isEqualTo("kafka");
		assertThat(event.key()).isEqualTo(id.toString());
		assertThat(event.destination()).isEqualTo("shipments");
		assertThat(event.headers()).containsEntry("tenant", "acme");
		assertThat(event.payloadAs(ShipmentDispatched.class)).isEqualTo(new ShipmentDispatched(id, "1 Main Street"));
		assertThat(context.containsBean("kafkaOutboxTransport")).isTrue();
	}

	@Test
	void eventsOfEachCommittedTransactionAreCapturedInCommitOrder() {
		UUID id = this.shipping.dispatch("2 Side Street");
		this.shipping.deliver(id);

		assertThat(this.captured.all()).extracting(RecordedOutboxEvent::eventType)
			.containsExactly("ShipmentDispatched", "shipping.delivered");
		this.relay.drain();
		assertThat(this.published.all()).extracting(RecordedOutboxEvent::eventType, RecordedOutboxEvent::key)
			.containsExactly(tuple("ShipmentDispatched", id.toString()),
					tuple("shipping.delivered", id.toString()));
	}

	@Test
	void eventOfARolledBackTransactionIsNeitherCapturedNorPublished() {
		assertThatIllegalStateException().isThrownBy(() -> this.shipping.dispatchAndFail("3 Lost Lane"));

		this.relay.drain();
		assertThat(this.captured.ofType(ShipmentDispatched.class)).isEmpty();
		assertThat(this.published.ofType(ShipmentDispatched.class)).isEmpty();
	}

}
