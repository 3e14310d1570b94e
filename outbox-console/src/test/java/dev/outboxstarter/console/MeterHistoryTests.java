package dev.outboxstarter.console;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.outboxstarter.console.OutboxConsoleEndpoint.Sample;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The console's history reads the outbox's meters: gauges as they are, every outbox's backlog together,
 * counters and the latency timer as rates and means over each interval, summed over their tags; it
 * keeps a bounded number of samples, reads a meter the application does not have as nothing, and goes
 * on sampling after a sample fails.
 */
@ExtendWith(OutputCaptureExtension.class)
class MeterHistoryTests {

	private final MeterRegistry meters = new SimpleMeterRegistry();

	private final MutableClock clock = new MutableClock();

	@Test
	void samplesGaugesAsTheyAreAndCountersAndTheLatencyOverEachInterval() {
		AtomicLong pending = new AtomicLong(3);
		Gauge.builder("outbox.backlog.pending", pending, AtomicLong::get).register(this.meters);
		TimeGauge.builder("outbox.backlog.oldest.age", () -> 42, TimeUnit.SECONDS).register(this.meters);
		Counter fast = Counter.builder("outbox.events.published").tag("path", "fast").register(this.meters);
		Counter relay = Counter.builder("outbox.events.published").tag("path", "relay").register(this.meters);
		Counter failed = Counter.builder("outbox.events.failed").register(this.meters);
		Timer latency = Timer.builder("outbox.publish.latency").register(this.meters);
		MeterHistory history = history(10);

		history.sample();
		fast.increment(15);
		relay.increment(5);
		failed.increment(2);
		latency.record(Duration.ofMillis(10));
		latency.record(Duration.ofMillis(30));
		pending.set(0);
		this.clock.advance(Duration.ofSeconds(2));
		history.sample();
		this.clock.advance(Duration.ofSeconds(2));
		history.sample();

		List<Sample> samples = history.samples();
		assertThat(samples).hasSize(3);
		assertThat(samples.get(0).backlog()).isEqualTo(3.0);
		assertThat(samples.get(0).oldestAgeSeconds()).isEqualTo(42.0);
		assertThat(samples.get(0).publishedPerSecond()).as("no interval before the first sample").isNull();
		assertThat(samples.get(1).backlog()).isZero();
		assertThat(samples.get(1).publishedPerSecond()).isEqualTo(10.0);
		assertThat(samples.get(1).failedPerSecond()).isEqualTo(1.0);
		assertThat(samples.get(1).latencyMillis()).isEqualTo(20.0);
		assertThat(samples.get(2).publishedPerSecond()).isZero();
		assertThat(samples.get(2).latencyMillis()).as("nothing published in the interval").isNull();
	}

	@Test
	void samplesTheBacklogOfEveryOutboxTogetherWhereEachHasItsGauges() {
		Gauge.builder("outbox.backlog.pending", () -> 3).tag("outbox", "dataSource").register(this.meters);
		Gauge.builder("outbox.backlog.pending", () -> 4).tag("outbox", "billingDataSource").register(this.meters);
		TimeGauge.builder("outbox.backlog.oldest.age", () -> 12, TimeUnit.SECONDS)
			.tag("outbox", "dataSource")
			.register(this.meters);
		TimeGauge.builder("outbox.backlog.oldest.age", () -> 42, TimeUnit.SECONDS)
			.tag("outbox", "billingDataSource")
			.register(this.meters);
		MeterHistory history = history(10);

		history.sample();

		assertThat(history.samples()).singleElement().satisfies((sample) -> {
			assertThat(sample.backlog()).isEqualTo(7.0);
			assertThat(sample.oldestAgeSeconds()).as("the oldest of any outbox").isEqualTo(42.0);
		});
	}

	@Test
	void keepsAtMostItsCapacityDroppingTheOldestSamples() {
		MeterHistory history = history(3);
		for (int i = 0; i < 5; i++) {
			history.sample();
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(history.samples()).extracting(Sample::time)
			.containsExactly(MutableClock.START.plusSeconds(2), MutableClock.START.plusSeconds(3),
					MutableClock.START.plusSeconds(4));
	}

	@Test
	void readsMetersTheApplicationDoesNotHaveAsNothing() {
		MeterHistory history = new MeterHistory(new StaticListableBeanFactory().getBeanProvider(MeterRegistry.class),
				Duration.ofSeconds(1), 10, this.clock, SimpleAsyncTaskScheduler::new);
		history.sample();
		this.clock.advance(Duration.ofSeconds(1));
		history.sample();
		assertThat(history.samples()).allSatisfy((sample) -> {
			assertThat(sample.backlog()).isNull();
			assertThat(sample.oldestAgeSeconds()).isNull();
			assertThat(sample.publishedPerSecond()).isNull();
			assertThat(sample.latencyMillis()).isNull();
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void keepsSamplingAfterASampleFailsAndWarnsOnceUntilOneSucceeds(CapturedOutput output) {
		ObjectProvider<MeterRegistry> registry = mock(ObjectProvider.class);
		given(registry.getIfAvailable()).willThrow(new IllegalStateException("registry closing"))
			.willThrow(new IllegalStateException("registry closing"))
			.willReturn(this.meters);
		MeterHistory history = new MeterHistory(registry, Duration.ofMillis(10), 10, Clock.systemUTC(),
				SimpleAsyncTaskScheduler::new);
		history.start();
		try {
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> history.samples().size() >= 2);
		}
		finally {
			history.stop();
		}
		assertThat(output.getAll().split("could not sample the outbox's meters", -1)).hasSize(2);
		assertThat(output.getAll()).contains("java.lang.IllegalStateException: registry closing");
	}

	private MeterHistory history(int capacity) {
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("meterRegistry", this.meters);
		ObjectProvider<MeterRegistry> registry = beans.getBeanProvider(MeterRegistry.class);
		return new MeterHistory(registry, Duration.ofSeconds(1), capacity, this.clock, SimpleAsyncTaskScheduler::new);
	}

	private static final class MutableClock extends Clock {

		static final Instant START = Instant.parse("2026-01-31T09:00:00Z");

		private Instant now = START;

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public Instant instant() {
			return this.now;
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

	}

}
