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
import org.jspecify.annotations.Nullable;

/**
 * The outbox's Micrometer meters. Counters and the latency timer are fed by the capture and the
 * deliveries as they happen; the backlog gauges read the {@link BacklogMonitor}'s latest reading, so
 * a scrape never queries the database. Tags are the transport name and the publish path only.
 */
public class OutboxMetrics implements CommittedEventsListener, OutboxDeliveryListener {

	private static final String TRANSPORT = "transport";

	private static final String PATH = "path";

	private final MeterRegistry registry;

	private final @Nullable BacklogMonitor backlog;

	private final Map<String, TransportMeters> transports = new ConcurrentHashMap<>();

	private final DistributionSummary relayBatchSize;

	/**
	 * Registers the meters.
	 * @param registry the registry
	 * @param transportNames the transports known at start-up, whose meters exist from the start
	 * @param relayMode who publishes, {@code polling} or {@code log}: the {@code mode} tag of the
	 * {@code outbox.relay.mode} gauge
	 * @param backlog the latest backlog reading, or {@code null} when the log relay publishes: no row
	 * stays in the table, so there is no backlog to gauge, only Debezium's lag, which the connector reports
	 */
	public OutboxMetrics(MeterRegistry registry, List<String> transportNames, String relayMode,
			@Nullable BacklogMonitor backlog) {
		this.registry = registry;
		this.backlog = backlog;
		Gauge.builder("outbox.relay.mode", () -> 1)
			.description("Who publishes the captured events: always 1, with the mode as its tag")
			.tag("mode", relayMode)
			.register(registry);
		if (backlog != null) {
			registerBacklogGauges(registry, backlog);
		}
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
		Duration clockOffset = (this.backlog != null) ? this.backlog.snapshot().databaseClockOffset() : Duration.ZERO;
		Instant acknowledgedOnDatabaseClock = acknowledgedAt.plus(clockOffset);
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

	private static void registerBacklogGauges(MeterRegistry registry, BacklogMonitor backlog) {
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
