package dev.outboxstarter.metrics;

import dev.outboxstarter.operations.OutboxMonitoring;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The fast path's queue size and overflow, read from the dispatcher when the registry asks.
 */
class FastPathMetrics implements MeterBinder {

	private final OutboxMonitoring monitoring;

	FastPathMetrics(OutboxMonitoring monitoring) {
		this.monitoring = monitoring;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (!this.monitoring.fastPathRuns()) {
			return;
		}
		Gauge.builder("outbox.fastpath.queue.size", this.monitoring, OutboxMonitoring::fastPathQueueSize)
			.description("Committed events waiting for the fast path")
			.register(registry);
		FunctionCounter.builder("outbox.fastpath.overflow", this.monitoring, OutboxMonitoring::fastPathOverflowCount)
			.description("Events left to the relay because the fast-path queue was full")
			.register(registry);
	}

}
