package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.ClaimedEvent.OrderingKey;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.PublishPath;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What one batch did, as {@link BatchDelivery} sends it: the acknowledged events, those still in flight
 * when it stopped waiting, those of paused destinations, not sent, and what its failed sends mean
 * ({@link SendFailures}). Recorded in the batch's transaction, and told to the delivery listeners once
 * committed.
 */
final class BatchOutcome {

	private static final Log logger = LogFactory.getLog(BatchOutcome.class);

	private final int claimed;

	private final SendFailures failures;

	private final Outages outages;

	private final List<Acknowledged> published = new ArrayList<>();

	/** Events not sent, by the pause of their destination. */
	private final Map<Pause, List<ClaimedEvent>> postponed = new HashMap<>();

	/** Paused destinations sent to again, their pause being over. */
	private final Set<Destination> probedDestinations = new HashSet<>();

	/** Sent and not acknowledged when the batch stopped waiting, or sent earlier and still in flight. */
	private final List<ClaimedEvent> inFlight = new ArrayList<>();

	/** Earlier sends whose outcome this batch records. */
	private final List<UUID> recordedEarlierSends = new ArrayList<>();

	/** Keys stopped at an event that was not published: their later events stay pending, unchanged. */
	private final Set<OrderingKey> stoppedKeys = new HashSet<>();

	/** Whether the thread was interrupted, which ends the batch. */
	private boolean interrupted;

	/**
	 * Starts the outcome of a batch about to be sent.
	 * @param claimed how many rows the batch claimed
	 * @param failures decides what its failed sends mean
	 * @param outages the pauses of destinations
	 */
	BatchOutcome(int claimed, SendFailures failures, Outages outages) {
		this.claimed = claimed;
		this.failures = failures;
		this.outages = outages;
	}

	SendFailures failures() {
		return this.failures;
	}

	/**
	 * Whether the event is not sent in this batch: its key stopped, or its transport or destination is
	 * not asked again.
	 */
	boolean skips(ClaimedEvent event, @Nullable OrderingKey key) {
		return (key != null && this.stoppedKeys.contains(key)) || this.failures.skips(event);
	}

	/** Leaves the later events of the key pending, unchanged. */
	void stop(@Nullable OrderingKey key) {
		if (key != null) {
			this.stoppedKeys.add(key);
		}
	}

	/**
	 * Postpones the event if its destination is paused: it is due when the pause is over. That is not an
	 * attempt, so neither its attempts nor the failures count it. A destination whose pause is over is
	 * sent to again, and its pause ends if it acknowledges (see {@link OutageTransitions}).
	 * @return whether the event is postponed, not to be sent
	 */
	boolean postponesForPause(ClaimedEvent event) {
		Pause pause = this.outages.pauseOf(event);
		if (pause == null) {
			return false;
		}
		if (!pause.isActiveAt(System.nanoTime())) {
			this.probedDestinations.add(Destination.of(event));
			return false;
		}
		this.postponed.computeIfAbsent(pause, (key) -> new ArrayList<>()).add(event);
		return true;
	}

	Set<Destination> probedDestinations() {
		return this.probedDestinations;
	}

	void acknowledged(ClaimedEvent event, Instant at) {
		this.published.add(new Acknowledged(event, at));
	}

	void stillInFlight(ClaimedEvent event) {
		this.inFlight.add(event);
	}

	void earlierSendRecorded(ClaimedEvent event) {
		this.recordedEarlierSends.add(event.message().id());
	}

	List<UUID> recordedEarlierSends() {
		return this.recordedEarlierSends;
	}

	void interrupted() {
		this.interrupted = true;
	}

	boolean isInterrupted() {
		return this.interrupted;
	}

	List<ClaimedEvent> acknowledgedEvents() {
		return this.published.stream().map(Acknowledged::event).toList();
	}

	/**
	 * Records the outcome in the batch's transaction. A send still in flight is no attempt: its row is
	 * due again after one more publish timeout (see {@link InFlightSends}).
	 * @param store the store of a table whose rows the batch claimed
	 * @param inTable which of the batch's rows are in that table
	 * @param publishTimeout the delivery's publish timeout
	 */
	void recordIn(OutboxStore store, Predicate<ClaimedEvent> inTable, Duration publishTimeout) {
		store.markPublished(ids(this.published.stream().map(Acknowledged::event).filter(inTable).toList()));
		this.failures.recordIn(store, inTable);
		this.postponed.forEach((pause, events) -> store.postpone(ids(events.stream().filter(inTable).toList()),
				pause.remainingAt(System.nanoTime()), "Not sent: its destination is paused until " + pause.endsAt()
						+ ", after it failed while the transport took messages to other destinations: " + pause.error()));
		List<ClaimedEvent> inFlight = this.inFlight.stream().filter(inTable).toList();
		if (!inFlight.isEmpty()) {
			store.postpone(ids(inFlight), publishTimeout, "Sent, not acknowledged within outbox.publish-timeout ("
					+ publishTimeout + "); not sent again while this instance awaits its acknowledgement");
		}
	}

	DeliveryResult result() {
		return new DeliveryResult(this.claimed, this.published.size(), this.failures.failures().size());
	}

	/**
	 * Tells the listeners the committed outcome. A listener that throws is logged, and neither keeps the
	 * others from being told nor makes the delivery fail: the outcome is recorded all the same.
	 * @param listeners the delivery listeners
	 * @param path the path that published the batch
	 * @param result what the batch did
	 */
	void tell(List<OutboxDeliveryListener> listeners, PublishPath path, DeliveryResult result) {
		for (OutboxDeliveryListener listener : listeners) {
			try {
				tell(listener, path, result);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not tell " + listener + " the outcome of a " + path + " batch (" + result
						+ "), which is recorded all the same", ex);
			}
		}
	}

	private void tell(OutboxDeliveryListener listener, PublishPath path, DeliveryResult result) {
		this.published.forEach((published) -> listener.published(path, published.event().transport(),
				published.event().message(), published.at()));
		this.failures.failures()
			.forEach((failure) -> listener.failed(path, failure.event().transport(), failure.event().message(),
					failure.attempt().error(), failure.attempt().dead()));
		this.postponed.values().forEach((events) -> events.forEach((event) -> postponed(listener, path, event)));
		this.failures.noRoom().forEach((event) -> postponed(listener, path, event));
		listener.delivered(path, result);
	}

	private static void postponed(OutboxDeliveryListener listener, PublishPath path, ClaimedEvent event) {
		listener.postponed(path, event.transport(), event.message());
	}

	private static List<UUID> ids(List<ClaimedEvent> events) {
		return events.stream().map((event) -> event.message().id()).toList();
	}

	private record Acknowledged(ClaimedEvent event, Instant at) {
	}

}
