package dev.outboxstarter.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.spi.InboxOutcomeListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The inbox's counters, tagged with the consumer name: {@code outbox.inbox.processed} and
 * {@code outbox.inbox.duplicates}.
 */
class InboxMetrics implements InboxOutcomeListener {

	private final MeterRegistry registry;

	private final Map<String, Counter> processed = new ConcurrentHashMap<>();

	private final Map<String, Counter> duplicates = new ConcurrentHashMap<>();

	public InboxMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void processed(String consumer, @Nullable String messageId) {
		this.processed.computeIfAbsent(consumer, (name) -> Counter.builder("outbox.inbox.processed")
			.description("Messages a consumer processed through the inbox")
			.tag("consumer", name)
			.register(this.registry)).increment();
	}

	@Override
	public void duplicate(String consumer, String messageId) {
		this.duplicates.computeIfAbsent(consumer, (name) -> Counter.builder("outbox.inbox.duplicates")
			.description("Messages a consumer skipped because it had processed them before")
			.tag("consumer", name)
			.register(this.registry)).increment();
	}

}
