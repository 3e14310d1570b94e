package dev.outboxstarter.internal.operations;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.housekeeping.BacklogMonitor;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxOperations;
import dev.outboxstarter.operations.PausedDestination;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.PublishPath;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

/**
 * {@link OutboxOperations} over the engine's parts, each looked up once at its first use: the
 * delivery's listeners (the metrics) read this view, so it cannot need the delivery when it is built.
 * A part this instance does not run (the relay, the fast path, the backlog monitor) is empty.
 */
public final class DefaultOutboxOperations implements OutboxOperations {

	/** The relay's batch size for {@link #publishDue()}, which runs rarely and from the caller's thread. */
	private static final int PUBLISH_DUE_BATCH_SIZE = 100;

	private final String relayMode;

	private final StoredEvents storedEvents;

	private final OutboxTransports transports;

	private final Outages outages;

	private final Supplier<OutboxCapture> capture;

	private final Supplier<BatchDelivery> delivery;

	private final Supplier<Optional<OutboxRelay>> relay;

	private final Supplier<Optional<FastPathDispatcher>> fastPath;

	private final Supplier<Optional<BacklogMonitor>> backlog;

	public DefaultOutboxOperations(String relayMode, StoredEvents storedEvents, OutboxTransports transports,
			Outages outages, ObjectProvider<OutboxCapture> capture, ObjectProvider<BatchDelivery> delivery,
			ObjectProvider<OutboxRelay> relay, ObjectProvider<FastPathDispatcher> fastPath,
			ObjectProvider<BacklogMonitor> backlog) {
		this.relayMode = relayMode;
		this.storedEvents = storedEvents;
		this.transports = transports;
		this.outages = outages;
		this.capture = SingletonSupplier.of(capture::getObject);
		this.delivery = SingletonSupplier.of(delivery::getObject);
		this.relay = SingletonSupplier.of(() -> Optional.ofNullable(relay.getIfAvailable()));
		this.fastPath = SingletonSupplier.of(() -> Optional.ofNullable(fastPath.getIfAvailable()));
		this.backlog = SingletonSupplier.of(() -> Optional.ofNullable(backlog.getIfAvailable()));
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
	public boolean discard(UUID id) {
		return this.storedEvents.discard(id);
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

	@Override
	public int publishDue() {
		BatchDelivery delivery = this.delivery.get();
		int published = 0;
		DeliveryResult result;
		do {
			result = delivery.deliver(PublishPath.RELAY, (store) -> store.claimDue(PUBLISH_DUE_BATCH_SIZE, 0));
			published += result.published();
		}
		while (result.published() > 0);
		return published;
	}

	@Override
	public List<CapturedEvent> flushAndListCaptured() {
		return this.capture.get().flushAndListCaptured();
	}

}
