package dev.outboxstarter.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.operations.OutboxMonitoring;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * How long ago this instance's relay last completed a poll, read when the registry asks: it grows
 * while the relay is stuck or has stopped, which nothing else shows while the fast path keeps
 * publishing. An age rather than a timestamp, so that it reads right whatever the scraper's clock.
 */
class RelayMetrics implements MeterBinder {

	private final OutboxMonitoring monitoring;

	private final Clock clock;

	RelayMetrics(OutboxMonitoring monitoring) {
		this(monitoring, Clock.systemUTC());
	}

	RelayMetrics(OutboxMonitoring monitoring, Clock clock) {
		this.monitoring = monitoring;
		this.clock = clock;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (!this.monitoring.relayRuns()) {
			return;
		}
		TimeGauge.builder("outbox.relay.last.run.age", this, TimeUnit.SECONDS, RelayMetrics::secondsSinceLastRun)
			.description("Time since this instance's relay last completed a poll (NaN before it started)")
			.register(registry);
	}

	private double secondsSinceLastRun() {
		Instant lastRun = this.monitoring.lastRelayRun();
		if (lastRun == null) {
			return Double.NaN;
		}
		return Duration.between(lastRun, this.clock.instant()).toMillis() / 1000.0;
	}

}
