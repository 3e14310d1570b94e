package dev.outboxstarter.core;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.PublishPath;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

/**
 * {@link OutboxOperations} over the engine's parts. Those that listeners of the delivery depend on
 * (the metrics read the operations) are looked up at their first use, and those an instance does not
 * run (the relay, the fast path, the backlog monitor) are {@code null}.
 */
final class DefaultOutboxOperations implements OutboxOperations {

	/** The relay's batch size for {@link #publishDue()}, which runs rarely and from the caller's thread. */
	private static final int PUBLISH_DUE_BATCH_SIZE = 100;

	private final String relayMode;

	private final OutboxStore store;

	private final OutboxTransports transports;

	private final Outages outages;

	private final Supplier<OutboxCapture> capture;

	private final Supplier<BatchDelivery> delivery;

	private final Supplier<@Nullable OutboxRelay> relay;

	private final Supplier<@Nullable FastPathDispatcher> fastPath;

	private final Supplier<@Nullable BacklogMonitor> backlog;

	DefaultOutboxOperations(String relayMode, OutboxStore store, OutboxTransports transports, Outages outages,
			ObjectProvider<OutboxCapture> capture, ObjectProvider<BatchDelivery> delivery,
			ObjectProvider<OutboxRelay> relay, ObjectProvider<FastPathDispatcher> fastPath,
			ObjectProvider<BacklogMonitor> backlog) {
		this.relayMode = relayMode;
		this.store = store;
		this.transports = transports;
		this.outages = outages;
		this.capture = SingletonSupplier.of(capture::getObject);
		this.delivery = SingletonSupplier.of(delivery::getObject);
		this.relay = SingletonSupplier.ofNullable(relay::getIfAvailable);
		this.fastPath = SingletonSupplier.ofNullable(fastPath::getIfAvailable);
		this.backlog = SingletonSupplier.ofNullable(backlog::getIfAvailable);
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
		BacklogMonitor backlog = this.backlog.get();
		return (backlog != null) ? backlog.snapshot() : null;
	}

	@Override
	public BacklogReading readBacklog() {
		return this.store.readBacklog();
	}

	@Override
	public List<EventCount> countByStatus() {
		return this.store.countByStatus();
	}

	@Override
	public List<StoredEvent> list(EventStatus status, int offset, int limit, boolean withValues) {
		return this.store.list(status, offset, limit, withValues);
	}

	@Override
	public boolean discard(UUID id) {
		return this.store.discard(id);
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
		return this.relay.get() != null;
	}

	@Override
	public @Nullable Instant lastRelayRun() {
		OutboxRelay relay = this.relay.get();
		return (relay != null) ? relay.lastRun() : null;
	}

	@Override
	public boolean fastPathRuns() {
		return this.fastPath.get() != null;
	}

	@Override
	public int fastPathQueueSize() {
		FastPathDispatcher fastPath = this.fastPath.get();
		return (fastPath != null) ? fastPath.queueSize() : 0;
	}

	@Override
	public long fastPathOverflowCount() {
		FastPathDispatcher fastPath = this.fastPath.get();
		return (fastPath != null) ? fastPath.overflowCount() : 0;
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
