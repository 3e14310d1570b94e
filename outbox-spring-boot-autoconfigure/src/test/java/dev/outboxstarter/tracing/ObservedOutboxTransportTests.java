package dev.outboxstarter.tracing;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.AcknowledgingTransport;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code outbox.publish} observation around each send: named and tagged by the default convention
 * unless the application gives its own, and stopped with the acknowledgement.
 */
class ObservedOutboxTransportTests {

	private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

	private final ObservationRegistry registry = ObservationRegistry.create();

	private final OutboxMessage message = new OutboxMessage(UUID.randomUUID(), "OrderPlaced", "Order", "42",
			"orders", "42", "{}", Map.of(), Instant.now());

	ObservedOutboxTransportTests() {
		this.registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				ObservedOutboxTransportTests.this.stopped.add(context);
			}

		});
	}

	@Test
	void byDefaultTheObservationIsTaggedWithTransportAndEventTypeAndCarriesDestinationAndIdOnTheSpan() {
		new ObservedOutboxTransport(new AcknowledgingTransport("test"), this.registry, null, null).send(this.message).join();

		assertThat(this.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getName()).isEqualTo("outbox.publish");
			assertThat(context.getContextualName()).isEqualTo("orders publish");
			assertThat(context.getLowCardinalityKeyValues()).containsExactlyInAnyOrder(
					KeyValue.of("outbox.transport", "test"), KeyValue.of("outbox.event.type", "OrderPlaced"));
			assertThat(context.getHighCardinalityKeyValues()).containsExactlyInAnyOrder(
					KeyValue.of("outbox.destination", "orders"),
					KeyValue.of("outbox.message.id", this.message.id().toString()));
		});
	}

	@Test
	void applicationsConventionReplacesTheDefaultOne() {
		OutboxPublishObservationConvention tenantOnly = new DefaultOutboxPublishObservationConvention() {

			@Override
			public KeyValues getLowCardinalityKeyValues(OutboxPublishContext context) {
				return KeyValues.of("tenant", context.getMessage().aggregateType());
			}

			@Override
			public KeyValues getHighCardinalityKeyValues(OutboxPublishContext context) {
				return KeyValues.empty();
			}

		};

		new ObservedOutboxTransport(new AcknowledgingTransport("test"), this.registry, tenantOnly, null).send(this.message)
			.join();

		assertThat(this.stopped).singleElement().satisfies((context) -> {
			assertThat(context.getName()).isEqualTo("outbox.publish");
			assertThat(context.getLowCardinalityKeyValues()).containsExactly(KeyValue.of("tenant", "Order"));
			assertThat(context.getHighCardinalityKeyValues()).isEmpty();
		});
	}

}
