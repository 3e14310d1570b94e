package dev.outboxstarter.metrics;

import dev.outboxstarter.core.publish.BatchDelivery;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * What this instance found unavailable, read from the delivery when the registry asks: transports whose
 * broker refused sends and has not acknowledged since, and destinations paused while the rest of their
 * transport took messages (a missing Kafka topic).
 */
public class AvailabilityMetrics implements MeterBinder {

	private final BatchDelivery delivery;

	public AvailabilityMetrics(BatchDelivery delivery) {
		this.delivery = delivery;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("outbox.transports.unavailable", this.delivery, (delivery) -> delivery.unavailableTransports().size())
			.description("Transports this instance found unavailable that have not acknowledged a message since")
			.register(registry);
		Gauge.builder("outbox.destinations.paused", this.delivery, (delivery) -> delivery.pausedDestinations().size())
			.description("Destinations this instance sends nothing to for now: unavailable while their transport "
					+ "took messages to others")
			.register(registry);
	}

}
