package dev.outboxstarter.metrics;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.core.publish.OutboxMessage;
import dev.outboxstarter.core.publish.OutboxTransport;
import dev.outboxstarter.core.relay.OutboxRelay;
import dev.outboxstarter.core.store.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code outbox.relay.last.run.age}: what an alert on a relay that stopped polling reads.
 */
class RelayMetricsTests {

	private static final Duration TWO_MINUTES_LATER = Duration.ofMinutes(2);

	private final OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.H2, "outbox_relay_metrics");

	// Polls itself only after an hour: the test drains.
	private final OutboxRelay relay = new OutboxRelay(this.outbox.delivery(new Acknowledging()), 10,
			Duration.ofHours(1), Duration.ofSeconds(5), SimpleAsyncTaskScheduler::new);

	@AfterEach
	void stop() {
		if (this.relay.isRunning()) {
			this.relay.stop();
		}
	}

	@Test
	void ageIsNotANumberBeforeTheRelayStarts() {
		assertThat(age(Clock.systemUTC())).isNaN();
	}

	@Test
	void ageIsTheTimeSinceTheRelayLastCompletedAPoll() {
		this.relay.start();
		this.relay.drain();
		Clock later = Clock.offset(Clock.systemUTC(), TWO_MINUTES_LATER);

		assertThat(age(later)).isCloseTo(TWO_MINUTES_LATER.toSeconds(), within(1.0));
	}

	private double age(Clock clock) {
		MeterRegistry registry = new SimpleMeterRegistry();
		new RelayMetrics(this.relay, clock).bindTo(registry);
		return registry.get("outbox.relay.last.run.age").timeGauge().value();
	}

	private static final class Acknowledging implements OutboxTransport {

		@Override
		public String name() {
			return "log";
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			return CompletableFuture.completedFuture(message.id());
		}

	}

}
