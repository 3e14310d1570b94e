package dev.outboxstarter.metrics;

import dev.outboxstarter.operations.OutboxMonitoring;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * What this instance found unavailable, read when the registry asks: transports whose
 * broker refused sends and has not acknowledged since, and destinations paused while the rest of their
 * transport took messages (a missing Kafka topic).
 */
class AvailabilityMetrics implements MeterBinder {

	private final OutboxMonitoring monitoring;

	AvailabilityMetrics(OutboxMonitoring monitoring) {
		this.monitoring = monitoring;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("outbox.transports.unavailable", this.monitoring,
				(monitoring) -> monitoring.unavailableTransports().size())
			.description("Transports this instance found unavailable that have not acknowledged a message since")
			.register(registry);
		Gauge.builder("outbox.destinations.paused", this.monitoring,
				(monitoring) -> monitoring.pausedDestinations().size())
			.description("Destinations this instance sends nothing to for now: unavailable while their transport "
					+ "took messages to others")
			.register(registry);
	}

}
