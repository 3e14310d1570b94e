package dev.outboxstarter.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.core.backlog.BacklogMonitor;
import dev.outboxstarter.core.capture.CommittedEventsListener;
import dev.outboxstarter.core.publish.DeliveryResult;
import dev.outboxstarter.core.publish.OutboxDeliveryListener;
import dev.outboxstarter.core.publish.PublishPath;
import dev.outboxstarter.core.store.CapturedEvent;
import dev.outboxstarter.core.store.ClaimedEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;

/**
 * The outbox's Micrometer meters. Counters and the latency timer are fed by the capture and the
 * deliveries as they happen; the backlog gauges read the {@link BacklogMonitor}'s latest reading, so
 * a scrape never queries the database. Tags are the transport name and the publish path only.
 */
public class OutboxMetrics implements CommittedEventsListener, OutboxDeliveryListener {

	private static final String TRANSPORT = "transport";

	private static final String PATH = "path";

	private final MeterRegistry registry;

	private final BacklogMonitor backlog;

	private final Map<String, TransportMeters> transports = new ConcurrentHashMap<>();

	private final DistributionSummary relayBatchSize;

	/**
	 * Registers the meters.
	 * @param registry the registry
	 * @param transportNames the transports known at start-up, whose meters exist from the start
	 * @param backlog the latest backlog reading
	 */
	public OutboxMetrics(MeterRegistry registry, List<String> transportNames, BacklogMonitor backlog) {
		this.registry = registry;
		this.backlog = backlog;
		Gauge.builder("outbox.backlog.pending", backlog, (monitor) -> monitor.snapshot().pending())
			.description("Pending outbox events (refreshed every outbox.backlog.refresh-interval)")
			.register(registry);
		TimeGauge.builder("outbox.backlog.oldest.age", backlog, TimeUnit.SECONDS,
				(monitor) -> monitor.snapshot().oldestPendingAgeSeconds())
			.description("How long the oldest pending outbox event has waited")
			.register(registry);
		Gauge.builder("outbox.backlog.dead", backlog, (monitor) -> monitor.snapshot().dead())
			.description("DEAD outbox events, waiting to be retried or discarded")
			.register(registry);
		this.relayBatchSize = DistributionSummary.builder("outbox.relay.batch.size")
			.description("Events claimed per relay batch that found work")
			.register(registry);
		transportNames.forEach(this::meters);
	}

	@Override
	public void committed(List<CapturedEvent> events) {
		for (CapturedEvent event : events) {
			meters(event.transport()).captured.increment();
		}
	}

	@Override
	public void published(PublishPath path, ClaimedEvent event, Instant acknowledgedAt) {
		TransportMeters meters = meters(event.transport());
		meters.published.get(path).increment();
		// created_at is on the database clock: bring the acknowledgement onto it.
		Instant acknowledgedOnDatabaseClock = acknowledgedAt.plus(this.backlog.snapshot().databaseClockOffset());
		Duration latency = Duration.between(event.message().occurredAt(), acknowledgedOnDatabaseClock);
		meters.latency.get(path).record(latency.isNegative() ? Duration.ZERO : latency);
	}

	@Override
	public void failed(PublishPath path, ClaimedEvent event, String error, boolean dead) {
		TransportMeters meters = meters(event.transport());
		meters.failed.increment();
		if (dead) {
			meters.dead.increment();
		}
	}

	@Override
	public void postponed(PublishPath path, ClaimedEvent event) {
		meters(event.transport()).postponed.increment();
	}

	@Override
	public void delivered(PublishPath path, DeliveryResult result) {
		if (path == PublishPath.RELAY) {
			this.relayBatchSize.record(result.claimed());
		}
	}

	private TransportMeters meters(String transport) {
		return this.transports.computeIfAbsent(transport, (name) -> new TransportMeters(this.registry, name));
	}

	private static final class TransportMeters {

		private final Counter captured;

		private final Counter failed;

		private final Counter dead;

		private final Counter postponed;

		private final Map<PublishPath, Counter> published = new EnumMap<>(PublishPath.class);

		private final Map<PublishPath, Timer> latency = new EnumMap<>(PublishPath.class);

		TransportMeters(MeterRegistry registry, String transport) {
			this.captured = Counter.builder("outbox.events.captured")
				.description("Outbox events committed with their business transaction")
				.tag(TRANSPORT, transport)
				.register(registry);
			this.failed = Counter.builder("outbox.events.failed")
				.description("Failed publish attempts")
				.tag(TRANSPORT, transport)
				.register(registry);
			this.dead = Counter.builder("outbox.events.dead")
				.description("Outbox events that used up their attempts and became DEAD")
				.tag(TRANSPORT, transport)
				.register(registry);
			this.postponed = Counter.builder("outbox.events.postponed")
				.description("Sends not made because the event's destination was paused; the event waits, "
						+ "its attempts unchanged")
				.tag(TRANSPORT, transport)
				.register(registry);
			for (PublishPath path : PublishPath.values()) {
				String pathTag = path.name().toLowerCase(Locale.ROOT);
				this.published.put(path, Counter.builder("outbox.events.published")
					.description("Outbox events acknowledged by their broker")
					.tags(TRANSPORT, transport, PATH, pathTag)
					.register(registry));
				this.latency.put(path, Timer.builder("outbox.publish.latency")
					.description("Time from an event's commit to its broker's acknowledgement")
					.tags(TRANSPORT, transport, PATH, pathTag)
					.publishPercentileHistogram()
					.minimumExpectedValue(Duration.ofMillis(1))
					.maximumExpectedValue(Duration.ofHours(1))
					.register(registry));
			}
		}

	}

}
