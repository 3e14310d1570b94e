package dev.outboxstarter.test.shipping;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.RecordingOutboxTransport;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @AutoConfigureOutbox(recordedTransports = {})} records nothing: in a slice, which has no Kafka
 * transport, an event routed to Kafka is then refused, which is why Kafka is recorded by default.
 */
@DataJpaTest
@AutoConfigureOutbox(recordedTransports = {})
class NoRecordedTransportsDataJpaTests {

	@Autowired
	private ShipmentRepository shipments;

	@Test
	void noTransportIsRecordedAndAnEventRoutedToKafkaIsRefused(ApplicationContext context) {
		assertThat(context.getBeansOfType(RecordingOutboxTransport.class)).isEmpty();

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.shipments.save(Shipment.dispatch("1 Main Street")))
			.withMessageContaining("kafka");
	}

}
