package dev.outboxstarter.metrics;

import dev.outboxstarter.core.publish.Outages;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * What this instance found unavailable, read when the registry asks: transports whose
 * broker refused sends and has not acknowledged since, and destinations paused while the rest of their
 * transport took messages (a missing Kafka topic).
 */
public class AvailabilityMetrics implements MeterBinder {

	private final Outages outages;

	public AvailabilityMetrics(Outages outages) {
		this.outages = outages;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("outbox.transports.unavailable", this.outages, (outages) -> outages.unavailableTransports().size())
			.description("Transports this instance found unavailable that have not acknowledged a message since")
			.register(registry);
		Gauge.builder("outbox.destinations.paused", this.outages, (outages) -> outages.pausedDestinations().size())
			.description("Destinations this instance sends nothing to for now: unavailable while their transport "
					+ "took messages to others")
			.register(registry);
	}

}
