package dev.outboxstarter.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.operations.BacklogSnapshot;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.TenantsReading;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.CommittedEventsListener;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.PublishPath;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.Assert;

/**
 * The outbox's Micrometer meters. Counters and the latency timer are fed by the capture and the
 * deliveries as they happen; the backlog gauges read the {@link BacklogMonitor}'s latest reading, so
 * a scrape never queries the database. Tags are the transport name and the publish path only; with
 * outboxes on several data sources, the backlog gauges of each also carry its name as {@code outbox}.
 */
class OutboxMetrics implements CommittedEventsListener, OutboxDeliveryListener, SmartInitializingSingleton {

	private static final String OUTBOX = "outbox";

	private static final String TRANSPORT = "transport";

	private static final String PATH = "path";

	private final MeterRegistry registry;

	private final OutboxMonitoring monitoring;

	private final Map<String, TransportMeters> transports = new ConcurrentHashMap<>();

	private final DistributionSummary relayBatchSize;

	/**
	 * Registers the meters.
	 * @param registry the registry
	 * @param monitoring the running outbox: its transports, whose meters exist from the start, its relay
	 * mode, the {@code mode} tag of the {@code outbox.relay.mode} gauge, and its backlog monitor, if it
	 * runs one (with the log relay no row stays in the table, and the connector reports Debezium's lag)
	 */
	OutboxMetrics(MeterRegistry registry, OutboxMonitoring monitoring) {
		this.registry = registry;
		this.monitoring = monitoring;
		Gauge.builder("outbox.relay.mode", () -> 1)
			.description("Who publishes the captured events: always 1, with the mode as its tag")
			.tag("mode", monitoring.relayMode())
			.register(registry);
		this.relayBatchSize = DistributionSummary.builder("outbox.relay.batch.size")
			.description("Events claimed per relay batch that found work")
			.register(registry);
		monitoring.transports().stream().sorted().forEach(this::meters);
	}

	/**
	 * Registers the backlog gauges once the outboxes of every data source are known.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		Map<String, OutboxMonitoring> others = this.monitoring.otherOutboxes();
		registerBacklogGauges(this.registry, this.monitoring,
				others.isEmpty() ? Tags.empty() : Tags.of(OUTBOX, this.monitoring.name()));
		others.values().forEach((outbox) -> registerBacklogGauges(this.registry, outbox, Tags.of(OUTBOX, outbox.name())));
		if (this.monitoring.tenants() != null) {
			registerTenantGauges(this.registry, this.monitoring);
		}
	}

	/**
	 * Two gauges for any number of tenants, not a series per tenant: the health details and the endpoint
	 * name the failing ones.
	 */
	private static void registerTenantGauges(MeterRegistry registry, OutboxMonitoring monitoring) {
		Gauge.builder("outbox.tenants", monitoring, (view) -> tenantsOf(view).tenants())
			.description("Tenants whose outboxes the relay was given at its last round")
			.register(registry);
		Gauge.builder("outbox.tenants.failing", monitoring, (view) -> tenantsOf(view).failing().size())
			.description("Tenants whose outbox the relay could not reach at their last attempt")
			.register(registry);
	}

	private static TenantsReading tenantsOf(OutboxMonitoring monitoring) {
		TenantsReading reading = monitoring.tenants();
		return (reading != null) ? reading : new TenantsReading(0, Map.of(), null);
	}

	@Override
	public void committed(List<CapturedEvent> events) {
		for (CapturedEvent event : events) {
			meters(event.transport()).captured.increment();
		}
	}

	@Override
	public void published(PublishPath path, String transport, OutboxMessage message, Instant acknowledgedAt) {
		TransportMeters meters = meters(transport);
		meters.published.get(path).increment();
		// created_at and deliver_at are on the database clock: bring the acknowledgement onto it. A delayed
		// event's latency counts from its delivery time, not through its delay.
		BacklogSnapshot backlog = this.monitoring.latestBacklog();
		Duration clockOffset = (backlog != null) ? backlog.databaseClockOffset() : Duration.ZERO;
		Instant acknowledgedOnDatabaseClock = acknowledgedAt.plus(clockOffset);
		Duration latency = Duration.between(message.dueAt(), acknowledgedOnDatabaseClock);
		meters.latency.get(path).record(latency.isNegative() ? Duration.ZERO : latency);
	}

	@Override
	public void failed(PublishPath path, String transport, OutboxMessage message, String error, boolean dead) {
		TransportMeters meters = meters(transport);
		meters.failed.increment();
		if (dead) {
			meters.dead.increment();
		}
	}

	@Override
	public void postponed(PublishPath path, String transport, OutboxMessage message) {
		meters(transport).postponed.increment();
	}

	@Override
	public void delivered(PublishPath path, DeliveryResult result) {
		if (path == PublishPath.RELAY) {
			this.relayBatchSize.record(result.claimed());
		}
	}

	private static void registerBacklogGauges(MeterRegistry registry, OutboxMonitoring monitoring, Tags tags) {
		if (monitoring.latestBacklog() == null) {
			return;
		}
		Gauge.builder("outbox.backlog.pending", monitoring, (outbox) -> latestBacklog(outbox).pending())
			.description("Pending outbox events that are due (refreshed every outbox.backlog.refresh-interval)")
			.tags(tags)
			.register(registry);
		TimeGauge.builder("outbox.backlog.oldest.age", monitoring, TimeUnit.SECONDS,
				(outbox) -> latestBacklog(outbox).oldestPendingAgeSeconds())
			.description("How long the oldest pending outbox event has waited since it became due")
			.tags(tags)
			.register(registry);
		Gauge.builder("outbox.backlog.scheduled", monitoring, (outbox) -> latestBacklog(outbox).scheduled())
			.description("Delayed outbox events whose time has not come yet, which are not backlog")
			.tags(tags)
			.register(registry);
		Gauge.builder("outbox.backlog.dead", monitoring, (outbox) -> latestBacklog(outbox).dead())
			.description("DEAD outbox events, waiting to be retried or discarded")
			.tags(tags)
			.register(registry);
	}

	private static BacklogSnapshot latestBacklog(OutboxMonitoring monitoring) {
		BacklogSnapshot backlog = monitoring.latestBacklog();
		Assert.state(backlog != null, "The backlog gauges are registered only when a backlog monitor runs");
		return backlog;
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
					.description("Time from an event's commit, or a delayed event's delivery time, to its broker's "
						+ "acknowledgement")
					.tags(TRANSPORT, transport, PATH, pathTag)
					.publishPercentileHistogram()
					.minimumExpectedValue(Duration.ofMillis(1))
					.maximumExpectedValue(Duration.ofHours(1))
					.register(registry));
			}
		}

	}

}
