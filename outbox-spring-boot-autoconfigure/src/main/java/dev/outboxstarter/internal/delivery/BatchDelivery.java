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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.ClaimedEvent.OrderingKey;
import dev.outboxstarter.internal.store.FailedAttempt;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.PublishPath;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Publishes one claimed batch, the same way for the fast path and the relay: in one transaction it
 * claims the rows (locking them), sends them without waiting per message, awaits the acknowledgements
 * within the publish timeout, marks the acknowledged rows published and records the failures, then
 * commits, which releases the locks.
 * <p>
 * A failure that says the broker is unavailable (see {@link OutboxTransport#isUnavailable}) pauses
 * only its destination if the transport acknowledged messages to other destinations since the batch
 * started (a destination that does not exist may fail like an unreachable broker); otherwise the whole
 * transport is unavailable. Either way it never makes the event {@code DEAD}, and the first
 * acknowledgement afterwards makes the events that waited due at once. A failure the transport says no
 * retry can get past (see {@link OutboxTransport#isPermanent}) makes the event {@code DEAD} at once.
 * <p>
 * A message not acknowledged when the batch stops waiting (the publish timeout passed, or the thread
 * was interrupted) is still in flight: the transport may yet deliver it. That is not an attempt and
 * says nothing about the broker, so its row is released unchanged but for a later due time, and this
 * instance does not send it again while it is in flight (see {@link InFlightSends}): the batch that
 * next claims it marks it published if it was acknowledged meanwhile, or records the failure as the
 * attempt's. A transport that has no room for a message (its {@code send} throws
 * {@link RejectedExecutionException}) is not asked again in the batch, and the message waits a first
 * retry backoff without counting an attempt.
 */
public class BatchDelivery {

	private static final Log logger = LogFactory.getLog(BatchDelivery.class);

	private static final DeliveryResult NOTHING_CLAIMED = new DeliveryResult(0, 0, 0);

	private final OutboxStore store;

	private final Map<String, OutboxTransport> transports;

	private final RetryPolicy retryPolicy;

	private final Duration publishTimeout;

	private final boolean perKeyOrdering;

	private final TransactionTemplate transactionTemplate;

	private final List<OutboxDeliveryListener> listeners;

	private final Outages outages;

	private final InFlightSends inFlight;

	/**
	 * Creates the delivery.
	 * @param store the outbox store
	 * @param transports transports by name
	 * @param retryPolicy backoff and dead-event rule; also the lengths of the pauses of an unavailable
	 * destination
	 * @param publishTimeout bound on sending and awaiting one batch
	 * @param perKeyOrdering whether the events of one key stop at the first that fails
	 * @param transactionTemplate transactions on the outbox data source, read committed
	 * @param listeners told every outcome
	 * @param outages what this instance found unavailable, shared with the health indicator and metrics
	 */
	public BatchDelivery(OutboxStore store, Map<String, OutboxTransport> transports, RetryPolicy retryPolicy,
			Duration publishTimeout, boolean perKeyOrdering, TransactionTemplate transactionTemplate,
			List<OutboxDeliveryListener> listeners, Outages outages) {
		this.store = store;
		this.transports = Map.copyOf(transports);
		this.retryPolicy = retryPolicy;
		this.publishTimeout = publishTimeout;
		this.perKeyOrdering = perKeyOrdering;
		this.transactionTemplate = transactionTemplate;
		this.listeners = List.copyOf(listeners);
		this.outages = outages;
		// Ample for the claim that follows the row's postponement by one publish timeout; a Kafka producer
		// with the timeouts the outbox derives settles every send within two.
		this.inFlight = new InFlightSends(publishTimeout.multipliedBy(10));
	}

	/**
	 * Claims a batch and publishes it.
	 * @param path which path is publishing
	 * @param claim locks the rows to publish, in seq order
	 * @return what was done
	 */
	public DeliveryResult deliver(PublishPath path, Function<OutboxStore, ClaimedBatch> claim) {
		Outcome outcome = this.transactionTemplate.execute((status) -> {
			ClaimedBatch batch = claim.apply(this.store);
			List<ClaimedEvent> claimed = batch.events();
			if (claimed.isEmpty()) {
				return null;
			}
			Outcome result = publish(batch.publishable());
			this.store.markPublished(result.publishedIds());
			this.store.markFailed(result.failedAttempts());
			result.postponed.forEach((pause, events) -> this.store.postpone(ids(events),
					pause.remainingAt(System.nanoTime()), notSentWhile(pause)));
			if (!result.inFlight.isEmpty()) {
				this.store.postpone(ids(result.inFlight), this.publishTimeout, stillInFlight());
			}
			result.noRoom.stream()
				.collect(Collectors.groupingBy(ClaimedEvent::transport))
				.forEach((transport, events) -> this.store.postpone(ids(events), this.retryPolicy.delayAfter(1),
						noRoomIn(transport)));
			result.claimed = claimed.size();
			return result;
		});
		this.inFlight.pruneResolved();
		if (outcome == null) {
			return NOTHING_CLAIMED;
		}
		this.inFlight.recorded(outcome.recordedEarlierSends);
		resumeWhatAcknowledgesAgain(outcome);
		DeliveryResult result = new DeliveryResult(outcome.claimed, outcome.published.size(), outcome.failures.size());
		// Only once the outcome is committed.
		for (OutboxDeliveryListener listener : this.listeners) {
			try {
				tell(listener, path, outcome, result);
			}
			catch (RuntimeException ex) {
				// The outcome is committed: a listener that throws must not pass for a failed delivery.
				logger.warn("Could not tell " + listener + " the outcome of a " + path + " batch (" + result
						+ "), which is recorded all the same", ex);
			}
		}
		return result;
	}

	private static void tell(OutboxDeliveryListener listener, PublishPath path, Outcome outcome,
			DeliveryResult result) {
		outcome.published.forEach((published) -> listener.published(path, published.event().transport(),
				published.event().message(), published.at()));
		outcome.failures.forEach((failure) -> listener.failed(path, failure.event().transport(),
				failure.event().message(), failure.attempt().error(), failure.attempt().dead()));
		outcome.postponed.values()
			.forEach((events) -> events.forEach((event) -> listener.postponed(path, event.transport(), event.message())));
		outcome.noRoom.forEach((event) -> listener.postponed(path, event.transport(), event.message()));
		listener.delivered(path, result);
	}

	/**
	 * A transport or destination that was unavailable and now acknowledged a message is back: the rows
	 * that failed meanwhile would otherwise wait out backoffs of up to {@code outbox.retry.max-delay} with
	 * the broker available.
	 */
	private void resumeWhatAcknowledgesAgain(Outcome outcome) {
		if (this.outages.anyTransportUnavailable() || !outcome.unavailableTransports.isEmpty()) {
			resumeTransports(outcome);
		}
		if (!outcome.probedDestinations.isEmpty()) {
			resumeDestinations(outcome);
		}
		this.outages.forgetEndedPauses();
	}

	/**
	 * Notes the transports that take messages again and those found unavailable. Each outage is logged
	 * twice, whichever path finds it, however long it lasts: a warning with its cause when it starts,
	 * a line when the transport takes messages again. Every failed attempt in between is in the
	 * metrics and the rows' {@code last_error}, not in the log.
	 */
	private void resumeTransports(Outcome outcome) {
		Set<String> acknowledging = new HashSet<>();
		outcome.published.forEach((published) -> acknowledging.add(published.event().transport()));
		long now = System.nanoTime();
		for (String transport : acknowledging) {
			if (outcome.unavailableTransports.contains(transport)) {
				continue;
			}
			Duration outage = this.outages.transportAcknowledged(transport, now);
			if (outage != null) {
				Integer resumed = this.transactionTemplate.execute((status) -> this.store.resumeBackedOff(transport));
				logger.info("Outbox transport '" + transport + "' takes messages again after being unavailable for "
						+ Duration.ofMillis(outage.toMillis()) + ((resumed != null && resumed > 0)
								? "; " + resumed + " events waiting out a retry backoff are due now" : ""));
			}
		}
		for (String transport : outcome.unavailableTransports) {
			if (this.outages.transportUnavailable(transport, now)) {
				UnavailableSend first = outcome.firstUnavailableSendTo(transport);
				logger.warn("Outbox transport '" + transport + "' is unavailable"
						+ ((first != null) ? " (" + first.error() + ")" : "") + "; its events stay pending and are "
						+ "retried with backoff, never DEAD for the outage. This is logged once: the next line says "
						+ "when it takes messages again; until then see the outbox.transports.unavailable gauge");
			}
		}
	}

	/**
	 * Ends the pause of each destination the batch tried again, its pause being over, and that
	 * acknowledged.
	 */
	private void resumeDestinations(Outcome outcome) {
		for (Destination destination : outcome.probedDestinations) {
			boolean acknowledged = outcome.published.stream()
				.anyMatch((published) -> destination.matches(published.event()));
			if (acknowledged && this.outages.endPause(destination)) {
				Integer resumed = this.transactionTemplate.execute(
						(status) -> this.store.resumeBackedOff(destination.transport(), destination.name()));
				logger.info("Outbox " + destination + " takes messages again; " + resumed
						+ " events waiting out a retry backoff are due now");
			}
		}
	}

	/**
	 * Sends the batch in rounds: every round sends, without waiting in between, the next message of each
	 * key (all of a key's messages at once when its transport keeps their order), then awaits the round's
	 * acknowledgements. A key stops at its first failure, a destination at its first failure that says
	 * it is unavailable, a transport once a second destination has failed that way with no
	 * acknowledgement from another destination since the batch started; what is not sent stays pending,
	 * unchanged.
	 */
	private Outcome publish(List<ClaimedEvent> events) {
		long deadline = System.nanoTime() + this.publishTimeout.toNanos();
		Outcome outcome = new Outcome();
		Set<OrderingKey> stoppedKeys = new HashSet<>();
		List<ClaimedEvent> unsent = recordEarlierSends(events, outcome, stoppedKeys);
		while (!unsent.isEmpty() && System.nanoTime() < deadline && !outcome.interrupted) {
			List<ClaimedEvent> round = new ArrayList<>(unsent.size());
			List<ClaimedEvent> later = new ArrayList<>();
			Set<OrderingKey> keysInRound = new HashSet<>();
			for (ClaimedEvent event : unsent) {
				OrderingKey key = orderingKey(event);
				if ((key != null && stoppedKeys.contains(key)) || outcome.skips(event)) {
					continue;
				}
				if (key != null && !keysInRound.add(key) && !keepsKeyOrder(event)) {
					later.add(event);
				}
				else {
					round.add(event);
				}
			}
			sendAndAwait(round, deadline, outcome, stoppedKeys);
			unsent = later;
		}
		recordUnavailableSends(outcome);
		return outcome;
	}

	/**
	 * Records the outcome of the claimed events this instance sent in an earlier batch that stopped
	 * waiting for them, instead of sending them again: acknowledged since, they are published; failed
	 * since, the failure is their attempt's; still in flight, they wait once more, and so do the later
	 * events of their keys.
	 * @return the events never sent, to send now
	 */
	private List<ClaimedEvent> recordEarlierSends(List<ClaimedEvent> events, Outcome outcome,
			Set<OrderingKey> stoppedKeys) {
		List<ClaimedEvent> unsent = null;
		for (int i = 0; i < events.size(); i++) {
			ClaimedEvent event = events.get(i);
			InFlightSends.Send earlier = this.inFlight.get(event.message().id());
			if (earlier == null) {
				if (unsent != null) {
					unsent.add(event);
				}
				continue;
			}
			if (unsent == null) {
				unsent = new ArrayList<>(events.subList(0, i));
			}
			Instant acknowledgedAt = earlier.acknowledgedAt();
			Throwable failure = earlier.failure();
			if (acknowledgedAt != null) {
				outcome.published.add(new Acknowledged(event, acknowledgedAt));
				outcome.recordedEarlierSends.add(event.message().id());
			}
			else if (failure != null) {
				failed(event, failure, outcome);
				outcome.recordedEarlierSends.add(event.message().id());
				stop(orderingKey(event), stoppedKeys);
			}
			else {
				outcome.inFlight.add(event);
				stop(orderingKey(event), stoppedKeys);
			}
		}
		return (unsent != null) ? unsent : events;
	}

	/**
	 * The key whose order must be kept, or {@code null} when there is none (no message key, or
	 * {@code outbox.ordering=none}).
	 */
	private @Nullable OrderingKey orderingKey(ClaimedEvent event) {
		return this.perKeyOrdering ? event.orderingKey() : null;
	}

	private boolean keepsKeyOrder(ClaimedEvent event) {
		OutboxTransport transport = this.transports.get(event.transport());
		return transport != null && transport.keepsKeyOrder();
	}

	/**
	 * Sends a round and awaits its acknowledgements. What is unavailable is not asked again in this
	 * batch: a transport that blocks and then throws rather than return a future would block as long
	 * for each further message, keeping the batch's locks and the next poll waiting for nothing.
	 */
	private void sendAndAwait(List<ClaimedEvent> round, long deadline, Outcome outcome, Set<OrderingKey> stoppedKeys) {
		List<Sent> sent = new ArrayList<>(round.size());
		for (ClaimedEvent event : round) {
			OrderingKey key = orderingKey(event);
			if ((key != null && stoppedKeys.contains(key)) || outcome.skips(event) || System.nanoTime() > deadline
					|| outcome.interrupted) {
				continue;
			}
			OutboxTransport transport = this.transports.get(event.transport());
			if (transport == null) {
				outcome.failed(event, "No transport named '" + event.transport() + "' is available");
				stop(key, stoppedKeys);
				continue;
			}
			Pause pause = this.outages.pauseOf(event);
			if (pause != null && pause.isActiveAt(System.nanoTime())) {
				outcome.postpone(event, pause);
				stop(key, stoppedKeys);
				continue;
			}
			if (pause != null) {
				outcome.probedDestinations.add(Destination.of(event));
			}
			try {
				sent.add(new Sent(event,
						transport.send(event.message()).thenApply((acknowledgement) -> acknowledged(event))));
			}
			catch (RejectedExecutionException ex) {
				outcome.noRoom.add(event);
				outcome.fullTransports.add(event.transport());
				stop(key, stoppedKeys);
			}
			catch (RuntimeException ex) {
				failed(event, ex, outcome);
				stop(key, stoppedKeys);
			}
		}
		for (Sent message : sent) {
			if (!awaitAcknowledgement(message, deadline, outcome)) {
				stop(orderingKey(message.event()), stoppedKeys);
			}
		}
	}

	private static void stop(@Nullable OrderingKey key, Set<OrderingKey> stoppedKeys) {
		if (key != null) {
			stoppedKeys.add(key);
		}
	}

	/**
	 * Notes when the event's destination acknowledged, on the thread that completes the send, and
	 * returns that time.
	 */
	private Instant acknowledged(ClaimedEvent event) {
		this.outages.destinationAcknowledged(Destination.of(event), System.nanoTime());
		return Instant.now();
	}

	private boolean awaitAcknowledgement(Sent message, long deadline, Outcome outcome) {
		ClaimedEvent event = message.event();
		try {
			Instant acknowledgedAt = message.acknowledgement()
				.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			outcome.published.add(new Acknowledged(event, acknowledgedAt));
			return true;
		}
		catch (TimeoutException ex) {
			stillInFlight(message, outcome);
		}
		catch (ExecutionException ex) {
			failed(event, ex.getCause(), outcome);
		}
		catch (InterruptedException ex) {
			// Shutting down: nothing is known about the message, let alone that it failed.
			Thread.currentThread().interrupt();
			outcome.interrupted = true;
			stillInFlight(message, outcome);
		}
		return false;
	}

	/**
	 * Neither an attempt nor a sign of an outage: a slow handler is as late as a broker that stopped
	 * answering. What the send ends in decides, once it is known.
	 */
	private void stillInFlight(Sent message, Outcome outcome) {
		outcome.inFlight.add(message.event());
		this.inFlight.add(message.event().message().id(), message.acknowledgement());
	}

	/**
	 * A failure the transport says is an outage is recorded once the batch's acknowledgements are in
	 * (see {@link #recordUnavailableSends}). Meanwhile its destination is not asked again in the batch,
	 * and neither is its transport once a second destination has failed the same way with no
	 * acknowledgement from another destination since the batch started: that is what an unreachable
	 * broker looks like.
	 */
	private void failed(ClaimedEvent event, Throwable failure, Outcome outcome) {
		String error = describe(failure);
		OutboxTransport transport = this.transports.get(event.transport());
		if (!transport.isUnavailable(failure)) {
			if (transport.isPermanent(failure)) {
				outcome.failedPermanently(event, error);
			}
			else {
				outcome.failed(event, error);
			}
			return;
		}
		Destination destination = Destination.of(event);
		UnavailableSend first = outcome.firstUnavailableSendTo(event.transport());
		if (first != null && !first.destination().equals(destination)
				&& !this.outages.acknowledgedElsewhereSince(first.destination(), outcome.startedAt)) {
			outcome.unavailableTransports.add(event.transport());
		}
		outcome.unavailableDestinations.add(destination);
		outcome.unavailableSends.add(new UnavailableSend(event, error));
	}

	/**
	 * Records the failures that said the broker was unavailable. If another destination of the
	 * transport acknowledged a message since the batch started, the broker was taking messages: only its
	 * destination pauses, and its events are due again when the pause is over (or, with too many
	 * destinations paused already, the event backs off like any failed one). Otherwise the transport
	 * is unavailable, and the event backs off like any failed one.
	 */
	private void recordUnavailableSends(Outcome outcome) {
		if (outcome.unavailableSends.isEmpty()) {
			return;
		}
		// A destination unavailable alone that could not be paused (too many are) maps to null.
		Map<Destination, @Nullable Pause> pausedNow = new HashMap<>();
		long now = System.nanoTime();
		for (UnavailableSend failed : outcome.unavailableSends) {
			Destination destination = failed.destination();
			boolean unavailableAlone = pausedNow.containsKey(destination);
			Pause pause = pausedNow.get(destination);
			if (!unavailableAlone && this.outages.acknowledgedElsewhereSince(destination, outcome.startedAt)) {
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
				outcome.record(event, false, pause.remainingAt(now), failed.error());
			}
			else if (unavailableAlone) {
				outcome.record(event, false, this.retryPolicy.delayAfter(event.attempts() + 1), failed.error());
			}
			else {
				outcome.transportUnavailable(event, failed.error());
			}
		}
	}

	private static List<UUID> ids(List<ClaimedEvent> events) {
		return events.stream().map((event) -> event.message().id()).toList();
	}

	private String stillInFlight() {
		return "Sent, not acknowledged within outbox.publish-timeout (" + this.publishTimeout + "); not sent again "
				+ "while this instance awaits its acknowledgement";
	}

	private static String noRoomIn(String transport) {
		return "Not sent: transport '" + transport + "' had no room for it, its earlier messages not yet acknowledged";
	}

	private static String notSentWhile(Pause pause) {
		return "Not sent: its destination is paused until " + pause.endsAt()
				+ ", after it failed while the transport took messages to other destinations: " + pause.error();
	}

	private static String describe(Throwable ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		return cause.getClass().getName() + ": " + cause.getMessage();
	}

	private record Sent(ClaimedEvent event, CompletableFuture<Instant> acknowledgement) {
	}

	private record UnavailableSend(ClaimedEvent event, String error) {

		Destination destination() {
			return Destination.of(this.event);
		}

	}

	private record Acknowledged(ClaimedEvent event, Instant at) {
	}

	private record Failure(ClaimedEvent event, FailedAttempt attempt) {
	}

	private final class Outcome {

		/**
		 * When the batch's first send was about to start. An acknowledgement from another destination
		 * since then shows the broker was taking messages during the batch, whether it came before or
		 * after the failed send began: a send that fails as unavailable may start after the acknowledgements
		 * of the sends before it are in.
		 */
		private final long startedAt = System.nanoTime();

		private final List<Acknowledged> published = new ArrayList<>();

		private final List<Failure> failures = new ArrayList<>();

		/** Events not sent, by the pause of their destination. */
		private final Map<Pause, List<ClaimedEvent>> postponed = new HashMap<>();

		/** Transports not asked again in this batch. */
		private final Set<String> unavailableTransports = new HashSet<>();

		/** Destinations not asked again in this batch. */
		private final Set<Destination> unavailableDestinations = new HashSet<>();

		/** Paused destinations sent to again, their pause being over. */
		private final Set<Destination> probedDestinations = new HashSet<>();

		/** Sends that failed as unavailable, recorded once every acknowledgement of the batch is in. */
		private final List<UnavailableSend> unavailableSends = new ArrayList<>();

		/** Sent and not acknowledged when the batch stopped waiting, or sent earlier and still in flight. */
		private final List<ClaimedEvent> inFlight = new ArrayList<>();

		/** Earlier sends whose outcome this batch records. */
		private final List<UUID> recordedEarlierSends = new ArrayList<>();

		/** Not sent: the transport had no room for them. */
		private final List<ClaimedEvent> noRoom = new ArrayList<>();

		/** Transports that had no room for a message, not asked again in this batch. */
		private final Set<String> fullTransports = new HashSet<>();

		/** Whether the thread was interrupted, which ends the batch. */
		private boolean interrupted;

		private int claimed;

		boolean skips(ClaimedEvent event) {
			return this.unavailableTransports.contains(event.transport()) || this.fullTransports.contains(event.transport())
					|| (!this.unavailableDestinations.isEmpty()
							&& this.unavailableDestinations.contains(Destination.of(event)));
		}

		@Nullable UnavailableSend firstUnavailableSendTo(String transport) {
			for (UnavailableSend send : this.unavailableSends) {
				if (send.event().transport().equals(transport)) {
					return send;
				}
			}
			return null;
		}

		/** Records a failed attempt that is the message's own: it counts towards max-attempts. */
		void failed(ClaimedEvent event, String error) {
			int attempts = event.attempts() + 1;
			boolean dead = BatchDelivery.this.retryPolicy.isExhausted(attempts);
			record(event, dead, BatchDelivery.this.retryPolicy.delayAfter(attempts), error);
			if (dead) {
				logger.warn("Outbox event " + event.message().id() + " (" + event.message().eventType() + " to "
						+ event.message().destination() + ") is DEAD after " + attempts + " attempts: " + error);
			}
		}

		/**
		 * Records a failure its transport says no retry can get past: the event is DEAD at once, so that
		 * its key is not held back for a retry schedule that could only fail.
		 */
		void failedPermanently(ClaimedEvent event, String error) {
			int attempts = event.attempts() + 1;
			record(event, true, Duration.ZERO, error);
			logger.warn("Outbox event " + event.message().id() + " (" + event.message().eventType() + " to "
					+ event.message().destination() + ") is DEAD at attempt " + attempts + ", refused in a way no "
					+ "retry can get past: " + error + ". Fix the cause (for a message too large, the broker's and "
					+ "the producer's size limits, or the event), then retry it");
		}

		/**
		 * Records an attempt that found the event's transport unavailable, which is not asked again in
		 * this batch. An outage is not the event's fault: the attempt is counted and backs off like any
		 * other, but however many there are, it does not make the event DEAD, so an outage longer than
		 * the retries does not take events out of their keys' order.
		 */
		void transportUnavailable(ClaimedEvent event, String error) {
			this.unavailableTransports.add(event.transport());
			record(event, false, BatchDelivery.this.retryPolicy.delayAfter(event.attempts() + 1), error);
		}

		/**
		 * Notes an event not sent because its destination is paused: it is due when the pause is over.
		 * Not an attempt, so neither its attempts nor the failures count it.
		 */
		void postpone(ClaimedEvent event, Pause pause) {
			this.postponed.computeIfAbsent(pause, (key) -> new ArrayList<>()).add(event);
		}

		void record(ClaimedEvent event, boolean dead, Duration retryDelay, String error) {
			this.failures.add(new Failure(event, new FailedAttempt(event.message().id(), dead, retryDelay, error)));
		}

		List<UUID> publishedIds() {
			return this.published.stream().map((published) -> published.event().message().id()).toList();
		}

		List<FailedAttempt> failedAttempts() {
			return this.failures.stream().map(Failure::attempt).toList();
		}

	}

}
