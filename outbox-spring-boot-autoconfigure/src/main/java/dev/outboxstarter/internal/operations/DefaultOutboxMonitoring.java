package dev.outboxstarter.internal.operations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.housekeeping.BacklogMonitor;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.store.EventSearch;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.BacklogSnapshot;
import dev.outboxstarter.operations.DeadEventCount;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.PausedDestination;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.operations.TenantsReading;
import org.jspecify.annotations.Nullable;

import org.springframework.util.function.SingletonSupplier;

/**
 * {@link OutboxMonitoring} over the engine's parts. The relay, the fast path and the backlog monitor
 * are looked up once, at their first use: the delivery's listeners (the metrics) read this view, so it
 * cannot need what needs the delivery when it is built. A part this instance does not run is empty.
 */
public final class DefaultOutboxMonitoring implements OutboxMonitoring {

	private final String name;

	private final String relayMode;

	private final StoredEvents storedEvents;

	private final EventSearch search;

	private final OutboxTransports transports;

	private final Outages outages;

	private final Supplier<Optional<OutboxRelay>> relay;

	private final Supplier<Optional<FastPathDispatcher>> fastPath;

	private final Supplier<Optional<BacklogMonitor>> backlog;

	private final Supplier<Map<String, OutboxMonitoring>> otherOutboxes;

	private final Supplier<Optional<TenantOutboxesView>> tenants;

	/**
	 * Creates the view of the engine's parts.
	 * @param name the outbox's name
	 * @param relayMode who publishes: {@code polling} or {@code log}
	 * @param storedEvents the table's rows
	 * @param search finds the table's rows by query
	 * @param transports the transports
	 * @param outages what this instance found unavailable
	 * @param relay the polling relay, if this instance runs it
	 * @param fastPath the fast path, if this instance runs it
	 * @param backlog the backlog monitor, if one runs
	 * @param otherOutboxes the views of the other data sources' outboxes
	 * @param tenants the tenants' outboxes, if the application has tenants
	 */
	public DefaultOutboxMonitoring(String name, String relayMode, StoredEvents storedEvents, EventSearch search,
			OutboxTransports transports, Outages outages, Supplier<@Nullable OutboxRelay> relay,
			Supplier<@Nullable FastPathDispatcher> fastPath, Supplier<@Nullable BacklogMonitor> backlog,
			Supplier<Map<String, OutboxMonitoring>> otherOutboxes, Supplier<@Nullable TenantOutboxesView> tenants) {
		this.name = name;
		this.relayMode = relayMode;
		this.storedEvents = storedEvents;
		this.search = search;
		this.transports = transports;
		this.outages = outages;
		this.relay = SingletonSupplier.of(() -> Optional.ofNullable(relay.get()));
		this.fastPath = SingletonSupplier.of(() -> Optional.ofNullable(fastPath.get()));
		this.backlog = SingletonSupplier.of(() -> Optional.ofNullable(backlog.get()));
		this.otherOutboxes = otherOutboxes;
		this.tenants = SingletonSupplier.of(() -> Optional.ofNullable(tenants.get()));
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Map<String, OutboxMonitoring> otherOutboxes() {
		return this.otherOutboxes.get();
	}

	@Override
	public @Nullable TenantsReading tenants() {
		return this.tenants.get().map(TenantOutboxesView::reading).orElse(null);
	}

	@Override
	public BacklogReading readTenantBacklog(String tenant) {
		return this.tenants.get()
			.orElseThrow(() -> new IllegalArgumentException("The application has no tenants (no OutboxTenants bean)"))
			.readBacklog(tenant);
	}

	@Override
	public String relayMode() {
		return this.relayMode;
	}

	@Override
	public Set<String> transports() {
		return this.transports.names();
	}

	@Override
	public @Nullable BacklogSnapshot latestBacklog() {
		// Read for every published event (the metrics' latency): no Optional per call.
		BacklogMonitor backlog = this.backlog.get().orElse(null);
		return (backlog != null) ? backlog.snapshot() : null;
	}

	@Override
	public BacklogReading readBacklog() {
		return this.storedEvents.readBacklog();
	}

	@Override
	public List<EventCount> countByStatus() {
		return this.storedEvents.countByStatus();
	}

	@Override
	public List<StoredEvent> list(EventStatus status, int offset, int limit, boolean withValues) {
		return this.storedEvents.list(status, offset, limit, withValues);
	}

	@Override
	public List<StoredEvent> find(EventQuery query, int offset, int limit, boolean withValues) {
		return this.search.find(query, offset, limit, withValues);
	}

	@Override
	public @Nullable StoredEvent find(UUID id, boolean withValues) {
		return this.search.find(id, withValues);
	}

	@Override
	public List<DeadEventCount> countDead() {
		return this.search.countDead();
	}

	@Override
	public Set<String> unavailableTransports() {
		return this.outages.unavailableTransports();
	}

	@Override
	public List<PausedDestination> pausedDestinations() {
		return this.outages.pausedDestinations();
	}

	@Override
	public boolean relayRuns() {
		return this.relay.get().isPresent();
	}

	@Override
	public @Nullable Instant lastRelayRun() {
		return this.relay.get().map(OutboxRelay::lastRun).orElse(null);
	}

	@Override
	public boolean fastPathRuns() {
		return this.fastPath.get().isPresent();
	}

	@Override
	public int fastPathQueueSize() {
		return this.fastPath.get().map(FastPathDispatcher::queueSize).orElse(0);
	}

	@Override
	public long fastPathOverflowCount() {
		return this.fastPath.get().map(FastPathDispatcher::overflowCount).orElse(0L);
	}

}
