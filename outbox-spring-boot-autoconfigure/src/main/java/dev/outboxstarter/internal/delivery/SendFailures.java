package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.FailedAttempt;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.OutboxTransport;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;

/**
 * What the sends of one batch that did not succeed mean for their events, decided as they fail and
 * recorded with the batch:
 * <ul>
 * <li>A failure of the message's own is an attempt: the event backs off by the {@link RetryPolicy}, and
 * is {@code DEAD} once its attempts are used up, or at once when the transport says no retry can get
 * past the failure (see {@link OutboxTransport#isPermanent}).
 * <li>A failure that says the broker is unavailable (see {@link OutboxTransport#isUnavailable}) never
 * makes the event {@code DEAD}. If the transport acknowledged a message to another destination since
 * the batch started, only the destination is unavailable (a destination that does not exist may fail
 * like an unreachable broker): it pauses (see {@link Outages}) and its events are due when the pause is
 * over. Otherwise the transport is unavailable, and the event's attempt backs off like any other.
 * Either way nothing more is sent there in the batch, and neither is anything to the transport once a
 * second destination has failed that way with no acknowledgement from elsewhere.
 * <li>A send its transport had no room for (its {@code send} threw
 * {@link java.util.concurrent.RejectedExecutionException}) is not an attempt: the event waits a first
 * retry backoff, and its transport is not asked again in the batch.
 * </ul>
 * A message not acknowledged when the batch stops waiting has not failed: it is still in flight (see
 * {@link InFlightSends}), and what its send ends in is decided here once it is known. Neither has an
 * event of a paused destination, which is not sent (see {@link BatchOutcome}).
 */
final class SendFailures {

	private static final Log logger = LogFactory.getLog(SendFailures.class);

	private final Map<String, OutboxTransport> transports;

	private final RetryPolicy retryPolicy;

	private final Outages outages;

	/**
	 * When the batch's first send was about to start. An acknowledgement from another destination since
	 * then shows the broker was taking messages during the batch, whether it came before or after the
	 * failed send began: a send that fails as unavailable may start after the acknowledgements of the
	 * sends before it are in.
	 */
	private final long startedAt = System.nanoTime();

	private final List<Failure> failures = new ArrayList<>();

	/** Not sent: the transport had no room for them. */
	private final List<ClaimedEvent> noRoom = new ArrayList<>();

	/** Transports that had no room for a message, not asked again in this batch. */
	private final Set<String> fullTransports = new HashSet<>();

	/** Transports not asked again in this batch. */
	private final Set<String> unavailableTransports = new HashSet<>();

	/** Destinations not asked again in this batch. */
	private final Set<Destination> unavailableDestinations = new HashSet<>();

	/** Sends that failed as unavailable, recorded once every acknowledgement of the batch is in. */
	private final List<UnavailableSend> unavailableSends = new ArrayList<>();

	/**
	 * Starts the record of a batch about to be sent.
	 * @param transports transports by name
	 * @param retryPolicy backoff and dead-event rule
	 * @param outages what this instance found unavailable
	 */
	SendFailures(Map<String, OutboxTransport> transports, RetryPolicy retryPolicy, Outages outages) {
		this.transports = transports;
		this.retryPolicy = retryPolicy;
		this.outages = outages;
	}

	/** Whether nothing more is sent to the event's transport or destination in this batch. */
	boolean skips(ClaimedEvent event) {
		return this.unavailableTransports.contains(event.transport()) || this.fullTransports.contains(event.transport())
				|| (!this.unavailableDestinations.isEmpty()
						&& this.unavailableDestinations.contains(Destination.of(event)));
	}

	/**
	 * Notes that the event's transport had no room for it: its transport is not asked again in this
	 * batch, and the event waits a first retry backoff without counting an attempt.
	 */
	void noRoomFor(ClaimedEvent event) {
		this.noRoom.add(event);
		this.fullTransports.add(event.transport());
	}

	/** Records the failure of an event whose transport does not exist: an attempt of its own. */
	void noTransportFor(ClaimedEvent event) {
		failed(event, "No transport named '" + event.transport() + "' is available");
	}

	/**
	 * Decides what the failure of the event's send means. One that says the broker is unavailable is
	 * recorded once the batch's acknowledgements are in (see {@link #recordUnavailableSends}): meanwhile
	 * its destination is not asked again in the batch, and neither is its transport once a second
	 * destination has failed the same way with no acknowledgement from another destination since the
	 * batch started, which is what an unreachable broker looks like.
	 * @param event the event sent
	 * @param failure what its send threw or completed with
	 */
	void failed(ClaimedEvent event, Throwable failure) {
		String error = describe(failure);
		OutboxTransport transport = this.transports.get(event.transport());
		if (!transport.isUnavailable(failure)) {
			if (transport.isPermanent(failure)) {
				failedPermanently(event, error);
			}
			else {
				failed(event, error);
			}
			return;
		}
		Destination destination = Destination.of(event);
		UnavailableSend first = firstUnavailableSendTo(event.transport());
		if (first != null && !first.destination().equals(destination)
				&& !this.outages.acknowledgedElsewhereSince(first.destination(), this.startedAt)) {
			this.unavailableTransports.add(event.transport());
		}
		this.unavailableDestinations.add(destination);
		this.unavailableSends.add(new UnavailableSend(event, error));
	}

	/**
	 * Records the failures that said the broker was unavailable, once the batch's acknowledgements are
	 * in. If another destination of the transport acknowledged a message since the batch started, the
	 * broker was taking messages: only its destination pauses, and its events are due again when the
	 * pause is over (or, with too many destinations paused already, the event backs off like any failed
	 * one). Otherwise the transport is unavailable, and the event backs off like any failed one.
	 */
	void recordUnavailableSends() {
		if (this.unavailableSends.isEmpty()) {
			return;
		}
		// A destination unavailable alone that could not be paused (too many are) maps to null.
		Map<Destination, @Nullable Pause> pausedNow = new HashMap<>();
		long now = System.nanoTime();
		for (UnavailableSend failed : this.unavailableSends) {
			Destination destination = failed.destination();
			boolean unavailableAlone = pausedNow.containsKey(destination);
			Pause pause = pausedNow.get(destination);
			if (!unavailableAlone && this.outages.acknowledgedElsewhereSince(destination, this.startedAt)) {
				unavailableAlone = true;
				pause = this.outages.pause(destination, failed.error(), now);
				pausedNow.put(destination, pause);
				if (pause != null) {
					logger.warn("Outbox " + destination + " is unavailable while its transport takes messages to "
							+ "other destinations (" + failed.error() + "); its events wait, and nothing is sent to it "
							+ "for " + pause.length() + ". A Kafka topic that does not exist, where the broker does "
							+ "not create topics, fails this way: create it.");
				}
			}
			ClaimedEvent event = failed.event();
			if (pause != null) {
				record(event, false, pause.remainingAt(now), failed.error());
			}
			else if (unavailableAlone) {
				record(event, false, this.retryPolicy.delayAfter(event.attempts() + 1), failed.error());
			}
			else {
				transportUnavailable(event, failed.error());
			}
		}
	}

	/** Records a failed attempt that is the message's own: it counts towards max-attempts. */
	private void failed(ClaimedEvent event, String error) {
		int attempts = event.attempts() + 1;
		boolean dead = this.retryPolicy.isExhausted(attempts);
		record(event, dead, this.retryPolicy.delayAfter(attempts), error);
		if (dead) {
			logger.warn("Outbox event " + event.message().id() + " (" + event.message().eventType() + " to "
					+ event.message().destination() + ") is DEAD after " + attempts + " attempts: " + error);
		}
	}

	/**
	 * Records a failure its transport says no retry can get past: the event is DEAD at once, so that its
	 * key is not held back for a retry schedule that could only fail.
	 */
	private void failedPermanently(ClaimedEvent event, String error) {
		int attempts = event.attempts() + 1;
		record(event, true, Duration.ZERO, error);
		logger.warn("Outbox event " + event.message().id() + " (" + event.message().eventType() + " to "
				+ event.message().destination() + ") is DEAD at attempt " + attempts + ", refused in a way no "
				+ "retry can get past: " + error + ". Fix the cause (for a message too large, the broker's and "
				+ "the producer's size limits, or the event), then retry it");
	}

	/**
	 * Records an attempt that found the event's transport unavailable, which is not asked again in this
	 * batch. An outage is not the event's fault: the attempt is counted and backs off like any other, but
	 * however many there are, it does not make the event DEAD, so an outage longer than the retries does
	 * not take events out of their keys' order.
	 */
	private void transportUnavailable(ClaimedEvent event, String error) {
		this.unavailableTransports.add(event.transport());
		record(event, false, this.retryPolicy.delayAfter(event.attempts() + 1), error);
	}

	private void record(ClaimedEvent event, boolean dead, Duration retryDelay, String error) {
		this.failures.add(new Failure(event, new FailedAttempt(event.message().id(), dead, retryDelay, error)));
	}

	/**
	 * Records the failed attempts, and the events their transport had no room for, in the batch's
	 * transaction.
	 * @param store the store of a table whose rows the batch claimed
	 * @param inTable which of the batch's rows are in that table
	 */
	void recordIn(OutboxStore store, Predicate<ClaimedEvent> inTable) {
		store.markFailed(this.failures.stream().filter((failure) -> inTable.test(failure.event()))
			.map(Failure::attempt)
			.toList());
		this.noRoom.stream()
			.filter(inTable)
			.collect(Collectors.groupingBy(ClaimedEvent::transport))
			.forEach((transport, events) -> store.postpone(ids(events), this.retryPolicy.delayAfter(1),
					noRoomIn(transport)));
	}

	/** The failed attempts, in the order they were recorded. */
	List<Failure> failures() {
		return this.failures;
	}

	/** The events their transport had no room for. */
	List<ClaimedEvent> noRoom() {
		return this.noRoom;
	}

	/** The transports this batch found unavailable. */
	Set<String> unavailableTransports() {
		return this.unavailableTransports;
	}

	/** What the first send of this batch that found the transport unavailable failed with, if one did. */
	@Nullable String firstUnavailableErrorOf(String transport) {
		UnavailableSend first = firstUnavailableSendTo(transport);
		return (first != null) ? first.error() : null;
	}

	private @Nullable UnavailableSend firstUnavailableSendTo(String transport) {
		for (UnavailableSend send : this.unavailableSends) {
			if (send.event().transport().equals(transport)) {
				return send;
			}
		}
		return null;
	}

	private static List<UUID> ids(List<ClaimedEvent> events) {
		return events.stream().map((event) -> event.message().id()).toList();
	}

	private static String noRoomIn(String transport) {
		return "Not sent: transport '" + transport + "' had no room for it, its earlier messages not yet acknowledged";
	}

	private static String describe(Throwable ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		return cause.getClass().getName() + ": " + cause.getMessage();
	}

	/** A failed attempt of an event, as recorded. */
	record Failure(ClaimedEvent event, FailedAttempt attempt) {
	}

	private record UnavailableSend(ClaimedEvent event, String error) {

		Destination destination() {
			return Destination.of(this.event);
		}

	}

}
