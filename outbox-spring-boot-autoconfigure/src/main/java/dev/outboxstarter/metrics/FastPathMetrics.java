package dev.outboxstarter.metrics;

import dev.outboxstarter.core.fastpath.FastPathDispatcher;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The fast path's queue size and overflow, read from the dispatcher when the registry asks.
 */
public class FastPathMetrics implements MeterBinder {

	private final FastPathDispatcher fastPath;

	public FastPathMetrics(FastPathDispatcher fastPath) {
		this.fastPath = fastPath;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("outbox.fastpath.queue.size", this.fastPath, FastPathDispatcher::queueSize)
			.description("Committed events waiting for the fast path")
			.register(registry);
		FunctionCounter.builder("outbox.fastpath.overflow", this.fastPath, FastPathDispatcher::overflowCount)
			.description("Events left to the relay because the fast-path queue was full")
			.register(registry);
	}

}
