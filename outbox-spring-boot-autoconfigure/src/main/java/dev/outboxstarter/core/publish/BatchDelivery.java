package dev.outboxstarter.core.publish;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.outboxstarter.core.retry.RetryPolicy;
import dev.outboxstarter.core.store.ClaimedBatch;
import dev.outboxstarter.core.store.ClaimedEvent;
import dev.outboxstarter.core.store.ClaimedEvent.OrderingKey;
import dev.outboxstarter.core.store.FailedAttempt;
import dev.outboxstarter.core.store.OutboxStore;
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
 */
public class BatchDelivery {

	private static final Log logger = LogFactory.getLog(BatchDelivery.class);

	private final OutboxStore store;

	private final Map<String, OutboxTransport> transports;

	private final RetryPolicy retryPolicy;

	private final Duration publishTimeout;

	private final boolean perKeyOrdering;

	private final TransactionTemplate transactionTemplate;

	private final List<OutboxDeliveryListener> listeners;

	/** Transports found unavailable (see {@link OutboxTransport#isUnavailable}) that have not acknowledged since. */
	private final Set<String> unavailableTransports = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the delivery.
	 * @param store the outbox store
	 * @param transports transports by name
	 * @param retryPolicy backoff and dead-event rule
	 * @param publishTimeout bound on sending and awaiting one batch
	 * @param perKeyOrdering whether to hold back rows an earlier pending row of their key must precede
	 * @param transactionTemplate transactions on the outbox data source, read committed
	 * @param listeners told every outcome
	 */
	public BatchDelivery(OutboxStore store, Map<String, OutboxTransport> transports, RetryPolicy retryPolicy,
			Duration publishTimeout, boolean perKeyOrdering, TransactionTemplate transactionTemplate,
			List<OutboxDeliveryListener> listeners) {
		this.store = store;
		this.transports = Map.copyOf(transports);
		this.retryPolicy = retryPolicy;
		this.publishTimeout = publishTimeout;
		this.perKeyOrdering = perKeyOrdering;
		this.transactionTemplate = transactionTemplate;
		this.listeners = List.copyOf(listeners);
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
			Outcome result = publish(withoutHeldBack(batch));
			this.store.markPublished(result.publishedIds());
			this.store.markFailed(result.failedAttempts());
			result.claimed = claimed.size();
			return result;
		});
		if (outcome == null) {
			return DeliveryResult.NONE;
		}
		resumeTransportsBackInService(outcome);
		DeliveryResult result = new DeliveryResult(outcome.claimed, outcome.published.size(), outcome.failures.size());
		// Only once the outcome is committed.
		for (OutboxDeliveryListener listener : this.listeners) {
			outcome.published.forEach((published) -> listener.published(path, published.event(), published.at()));
			outcome.failures.forEach((failure) -> listener.failed(path, failure.event(), failure.attempt().error(),
					failure.attempt().dead()));
			listener.delivered(path, result);
		}
		return result;
	}

	/**
	 * A transport that was unavailable (its broker unreachable or not acknowledging) and now acknowledged
	 * a message is back: the rows that failed meanwhile would otherwise wait out backoffs of up to
	 * {@code outbox.retry.max-delay} with the broker available.
	 */
	private void resumeTransportsBackInService(Outcome outcome) {
		if (this.unavailableTransports.isEmpty() && outcome.unavailableTransports.isEmpty()) {
			// Every batch passes here: without an outage there is nothing to look at.
			return;
		}
		Set<String> acknowledging = new HashSet<>();
		outcome.published.forEach((published) -> acknowledging.add(published.event().transport()));
		for (String transport : acknowledging) {
			if (!outcome.unavailableTransports.contains(transport) && this.unavailableTransports.remove(transport)) {
				Integer resumed = this.transactionTemplate.execute((status) -> this.store.resumeBackedOff(transport));
				if (resumed != null && resumed > 0) {
					logger.info("Outbox transport '" + transport + "' takes messages again; " + resumed
							+ " events waiting out a retry backoff are due now");
				}
			}
		}
		this.unavailableTransports.addAll(outcome.unavailableTransports);
	}

	private List<ClaimedEvent> withoutHeldBack(ClaimedBatch batch) {
		List<ClaimedEvent> claimed = batch.events();
		if (!this.perKeyOrdering) {
			return claimed;
		}
		Set<UUID> heldBack = (batch.heldBack() != null) ? batch.heldBack()
				: this.store.heldBack(claimed.stream().map((event) -> event.message().id()).toList());
		if (heldBack.isEmpty()) {
			return claimed;
		}
		return claimed.stream().filter((event) -> !heldBack.contains(event.message().id())).toList();
	}

	/**
	 * Sends the batch in rounds: every round sends, without waiting in between, the next message of each
	 * key (all of a key's messages at once when its transport keeps their order), then awaits the round's
	 * acknowledgements. A key stops at its first failure, a transport at its first failure that says it
	 * is unavailable; what is not sent stays pending, unchanged.
	 */
	private Outcome publish(List<ClaimedEvent> events) {
		long deadline = System.nanoTime() + this.publishTimeout.toNanos();
		Outcome outcome = new Outcome();
		Set<OrderingKey> stoppedKeys = new HashSet<>();
		Set<String> unavailableTransports = outcome.unavailableTransports;
		List<ClaimedEvent> unsent = events;
		while (!unsent.isEmpty() && System.nanoTime() < deadline) {
			List<ClaimedEvent> round = new ArrayList<>(unsent.size());
			List<ClaimedEvent> later = new ArrayList<>();
			Set<OrderingKey> keysInRound = new HashSet<>();
			for (ClaimedEvent event : unsent) {
				OrderingKey key = orderingKey(event);
				if ((key != null && stoppedKeys.contains(key)) || unavailableTransports.contains(event.transport())) {
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
		return outcome;
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
	 * Sends a round and awaits its acknowledgements. A transport that is unavailable is not asked again
	 * in this batch: when it throws rather than return a future (Kafka does when it has had no metadata
	 * within {@code max.block.ms}), each further message would block as long and fail the same way,
	 * keeping the batch's locks and the next poll waiting for nothing.
	 */
	private void sendAndAwait(List<ClaimedEvent> round, long deadline, Outcome outcome, Set<OrderingKey> stoppedKeys) {
		List<ClaimedEvent> sent = new ArrayList<>(round.size());
		List<CompletableFuture<Instant>> acknowledgements = new ArrayList<>(round.size());
		for (ClaimedEvent event : round) {
			OrderingKey key = orderingKey(event);
			if ((key != null && stoppedKeys.contains(key)) || outcome.unavailableTransports.contains(event.transport())
					|| System.nanoTime() > deadline) {
				continue;
			}
			OutboxTransport transport = this.transports.get(event.transport());
			if (transport == null) {
				outcome.failed(event, "No transport named '" + event.transport() + "' is available");
				stop(key, stoppedKeys);
				continue;
			}
			try {
				// The time is taken when the acknowledgement arrives, not when this thread gets to it.
				acknowledgements.add(transport.send(event.message()).thenApply((acknowledgement) -> Instant.now()));
				sent.add(event);
			}
			catch (RuntimeException ex) {
				outcome.failed(event, describe(ex), transport.isUnavailable(ex));
				stop(key, stoppedKeys);
			}
		}
		for (int i = 0; i < sent.size(); i++) {
			ClaimedEvent event = sent.get(i);
			if (!awaitAcknowledgement(event, acknowledgements.get(i), deadline, outcome)) {
				stop(orderingKey(event), stoppedKeys);
			}
		}
	}

	private static void stop(@Nullable OrderingKey key, Set<OrderingKey> stoppedKeys) {
		if (key != null) {
			stoppedKeys.add(key);
		}
	}

	private boolean awaitAcknowledgement(ClaimedEvent event, CompletableFuture<Instant> acknowledgement,
			long deadline, Outcome outcome) {
		try {
			Instant acknowledgedAt = acknowledgement.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			outcome.published.add(new Acknowledged(event, acknowledgedAt));
			return true;
		}
		catch (TimeoutException ex) {
			outcome.unavailable(event, "No acknowledgement within outbox.publish-timeout (" + this.publishTimeout + ")");
		}
		catch (ExecutionException ex) {
			Throwable failure = ex.getCause();
			outcome.failed(event, describe(failure), this.transports.get(event.transport()).isUnavailable(failure));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			outcome.failed(event, "Interrupted while awaiting the acknowledgement");
		}
		return false;
	}

	private static String describe(Throwable ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		return cause.getClass().getName() + ": " + cause.getMessage();
	}

	private record Acknowledged(ClaimedEvent event, Instant at) {
	}

	private record Failure(ClaimedEvent event, FailedAttempt attempt) {
	}

	private final class Outcome {

		private final List<Acknowledged> published = new ArrayList<>();

		private final List<Failure> failures = new ArrayList<>();

		private final Set<String> unavailableTransports = new HashSet<>();

		private int claimed;

		/** Records a failed attempt that is the message's own: it counts towards max-attempts. */
		void failed(ClaimedEvent event, String error) {
			failed(event, error, false);
		}

		/** Records an attempt that found the event's transport unavailable. */
		void unavailable(ClaimedEvent event, String error) {
			failed(event, error, true);
		}

		/**
		 * Records a failed attempt. An unavailable transport is not the event's fault: the attempt is
		 * counted and backs off like any other, but however many there are, it does not make the event
		 * DEAD, so an outage longer than the retries does not take events out of their keys' order.
		 */
		void failed(ClaimedEvent event, String error, boolean transportUnavailable) {
			if (transportUnavailable) {
				this.unavailableTransports.add(event.transport());
			}
			int attempts = event.attempts() + 1;
			boolean dead = !transportUnavailable && BatchDelivery.this.retryPolicy.isExhausted(attempts);
			Duration retryDelay = BatchDelivery.this.retryPolicy.delayAfter(attempts);
			this.failures.add(new Failure(event, new FailedAttempt(event.message().id(), dead, retryDelay, error)));
			if (dead) {
				logger.warn("Outbox event " + event.message().id() + " (" + event.message().eventType() + " to "
						+ event.message().destination() + ") is DEAD after " + attempts + " attempts: " + error);
			}
		}

		List<UUID> publishedIds() {
			return this.published.stream().map((published) -> published.event().message().id()).toList();
		}

		List<FailedAttempt> failedAttempts() {
			return this.failures.stream().map(Failure::attempt).toList();
		}

	}

}
