package dev.outboxstarter.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.core.relay.OutboxRelay;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * How long ago this instance's relay last completed a poll, read when the registry asks: it grows
 * while the relay is stuck or has stopped, which nothing else shows while the fast path keeps
 * publishing. An age rather than a timestamp, so that it reads right whatever the scraper's clock.
 */
public class RelayMetrics implements MeterBinder {

	private final OutboxRelay relay;

	private final Clock clock;

	public RelayMetrics(OutboxRelay relay) {
		this(relay, Clock.systemUTC());
	}

	RelayMetrics(OutboxRelay relay, Clock clock) {
		this.relay = relay;
		this.clock = clock;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		TimeGauge.builder("outbox.relay.last.run.age", this, TimeUnit.SECONDS, RelayMetrics::secondsSinceLastRun)
			.description("Time since this instance's relay last completed a poll (NaN before it started)")
			.register(registry);
	}

	private double secondsSinceLastRun() {
		Instant lastRun = this.relay.lastRun();
		if (lastRun == null) {
			return Double.NaN;
		}
		return Duration.between(lastRun, this.clock.instant()).toMillis() / 1000.0;
	}

}
