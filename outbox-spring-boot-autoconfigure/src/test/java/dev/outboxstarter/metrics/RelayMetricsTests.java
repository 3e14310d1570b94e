package dev.outboxstarter.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.outboxstarter.operations.OutboxMonitoring;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * {@code outbox.relay.last.run.age}: what an alert on a relay that stopped polling reads.
 */
class RelayMetricsTests {

	private static final Duration TWO_MINUTES_LATER = Duration.ofMinutes(2);

	@Test
	void ageIsNotANumberBeforeTheRelayFirstRan() {
		assertThat(age(null, Clock.systemUTC())).isNaN();
	}

	@Test
	void ageIsTheTimeSinceTheRelayLastCompletedAPoll() {
		Clock later = Clock.offset(Clock.systemUTC(), TWO_MINUTES_LATER);

		assertThat(age(Instant.now(), later)).isCloseTo(TWO_MINUTES_LATER.toSeconds(), within(1.0));
	}

	@Test
	void anInstanceWithoutARelayHasNoAge() {
		OutboxMonitoring monitoring = mock(OutboxMonitoring.class);
		MeterRegistry registry = new SimpleMeterRegistry();
		new RelayMetrics(monitoring).bindTo(registry);
		assertThat(registry.find("outbox.relay.last.run.age").timeGauge()).isNull();
	}

	private double age(@Nullable Instant lastRun, Clock clock) {
		OutboxMonitoring monitoring = mock(OutboxMonitoring.class);
		given(monitoring.relayRuns()).willReturn(true);
		given(monitoring.lastRelayRun()).willReturn(lastRun);
		MeterRegistry registry = new SimpleMeterRegistry();
		new RelayMetrics(monitoring, clock).bindTo(registry);
		return registry.get("outbox.relay.last.run.age").timeGauge().value();
	}

}
