package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.ClaimedEvent.OrderingKey;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.PublishPath;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.Assert;

/**
 * Publishes one claimed batch, the same way for the fast path and the relay: in one transaction it
 * claims the rows (locking them), sends them without waiting per message, awaits the acknowledgements
 * within the publish timeout, marks the acknowledged rows published and records the failures, then
 * commits, which releases the locks. What a failure means for its event, its destination and its
 * transport ({@code DEAD}, a retry, an outage, a pause) is decided by {@link SendFailures}; where
 * outages start and end, once the batch is committed, by {@link OutageTransitions}.
 * <p>
 * A message not acknowledged when the batch stops waiting (the publish timeout passed, or the thread
 * was interrupted) is still in flight: the transport may yet deliver it. That is not an attempt and
 * says nothing about the broker, so its row is released unchanged but for a later due time, and this
 * instance does not send it again while it is in flight (see {@link InFlightSends}): the batch that
 * next claims it marks it published if it was acknowledged meanwhile, or records the failure as the
 * attempt's.
 */
public class BatchDelivery {

	private static final DeliveryResult NOTHING_CLAIMED = new DeliveryResult(0, 0, 0);

	private final OutboxStore store;

	private final Map<String, OutboxTransport> transports;

	private final RetryPolicy retryPolicy;

	private final Duration publishTimeout;

	private final boolean perKeyOrdering;

	private final TransactionTemplate transactionTemplate;

	private final List<OutboxDeliveryListener> listeners;

	private final Outages outages;

	private final OutageTransitions outageTransitions;

	private final InFlightSends inFlight;

	/** Sends of this delivery's batches, of the fast path and the relay alike, not yet completed. */
	private final AtomicInteger unresolvedSends = new AtomicInteger();

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
		this.outageTransitions = new OutageTransitions(store, transactionTemplate, outages);
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
		return deliverTogether(path, Map.of(this, claim));
	}

	/**
	 * Claims a batch in each of several outbox tables and publishes them as one: in one transaction,
	 * with one wait for the acknowledgements of all, where a batch per table would take a commit and a
	 * wait each. Every table's delivery must {@linkplain #sharesTransactionsWith share this one's
	 * transactions}; each keeps the order of its own keys, and records its rows' outcomes in its own
	 * table.
	 * @param path which path is publishing
	 * @param claims for each table's delivery, what locks the rows to publish in that table, in seq
	 * order
	 * @return what was done, over all the tables
	 */
	DeliveryResult deliverTogether(PublishPath path,
			Map<BatchDelivery, Function<OutboxStore, ClaimedBatch>> claims) {
		claims.keySet().forEach((table) -> {
			Assert.isTrue(sharesTransactionsWith(table), "Outbox tables delivered together must share a data source");
			table.outageTransitions.catchUpWithEndedOutages();
		});
		BatchOutcome outcome = this.transactionTemplate.execute((status) -> {
			Tables tables = new Tables(claims.size());
			claims.forEach((table, claim) -> tables.claimed(table, claim.apply(table.store)));
			if (tables.claimed == 0) {
				return null;
			}
			BatchOutcome result = publish(tables);
			tables.batches.forEach((table, batch) -> result.recordIn(table.store, tables.inTable(table),
					this.publishTimeout));
			return result;
		});
		claims.keySet().forEach((table) -> table.inFlight.pruneResolved());
		if (outcome == null) {
			return NOTHING_CLAIMED;
		}
		claims.keySet().forEach((table) -> table.inFlight.recorded(outcome.recordedEarlierSends()));
		this.outageTransitions.batchCommitted(outcome);
		DeliveryResult result = outcome.result();
		// Only once the outcome is committed.
		outcome.tell(this.listeners, path, result);
		return result;
	}

	/**
	 * Whether this delivery's transactions are the other's too: both tables are in one data source, so
	 * one transaction can claim and mark the rows of both.
	 * @param other the delivery of another table
	 * @return whether the two can be delivered together
	 */
	boolean sharesTransactionsWith(BatchDelivery other) {
		if (other == this) {
			return true;
		}
		return this.transactionTemplate.getTransactionManager() instanceof ResourceTransactionManager mine
				&& other.transactionTemplate.getTransactionManager() instanceof ResourceTransactionManager theirs
				&& mine.getResourceFactory() == theirs.getResourceFactory();
	}

	/**
	 * Sends the batch in rounds: every round sends, without waiting in between, the next message of each
	 * key (all of a key's messages at once when its transport keeps their order), then awaits the round's
	 * acknowledgements. A key stops at its first failure; what {@link SendFailures} says is unavailable
	 * is not asked again in the batch. What is not sent stays pending, unchanged.
	 * <p>
	 * A transport keeps the order of messages sent at once only while it fails none of them unless it
	 * fails the later ones too. Kafka's producer does not while a send of another batch is unresolved
	 * (one this batch's wait overlaps, or one an earlier batch stopped waiting for): that send sits in an
	 * older producer batch, which expires first, and a message of a key appended to it can fail while the
	 * next message of the key, in a newer producer batch, is delivered once the broker is back. So a round
	 * that starts while any send of this delivery is unresolved takes one message of each key.
	 * <p>
	 * The keys of several tables delivered together are told apart by neither rule: two tables' events
	 * of one key go in separate rounds, and a failure stops the key in both, which leaves events pending
	 * and never reorders them.
	 */
	private BatchOutcome publish(Tables tables) {
		long deadline = System.nanoTime() + this.publishTimeout.toNanos();
		SendFailures failures = new SendFailures(this.transports, this.retryPolicy, this.outages);
		BatchOutcome outcome = new BatchOutcome(tables.claimed, failures, this.outages);
		List<ClaimedEvent> unsent = recordEarlierSends(tables, outcome);
		while (!unsent.isEmpty() && System.nanoTime() < deadline && !outcome.isInterrupted()) {
			// This batch's earlier rounds are resolved: what is unresolved is another batch's.
			boolean keyRunsAtOnce = tables.noSendUnresolved();
			List<ClaimedEvent> round = new ArrayList<>(unsent.size());
			List<ClaimedEvent> later = new ArrayList<>();
			Set<OrderingKey> keysInRound = new HashSet<>();
			for (ClaimedEvent event : unsent) {
				OrderingKey key = orderingKey(event);
				if (outcome.skips(event, key)) {
					continue;
				}
				if (key != null && !keysInRound.add(key) && !(keyRunsAtOnce && keepsKeyOrder(event))) {
					later.add(event);
				}
				else {
					round.add(event);
				}
			}
			sendAndAwait(tables, round, deadline, outcome);
			unsent = later;
		}
		outcome.failures().recordUnavailableSends();
		return outcome;
	}

	/**
	 * Records the outcome of the claimed events this instance sent in an earlier batch that stopped
	 * waiting for them, instead of sending them again: acknowledged since, they are published; failed
	 * since, the failure is their attempt's; still in flight, they wait once more, and so do the later
	 * events of their keys.
	 * @return the events never sent, to send now
	 */
	private List<ClaimedEvent> recordEarlierSends(Tables tables, BatchOutcome outcome) {
		List<ClaimedEvent> events = tables.publishable;
		List<ClaimedEvent> unsent = null;
		for (int i = 0; i < events.size(); i++) {
			ClaimedEvent event = events.get(i);
			InFlightSends.Send earlier = tables.of(event).inFlight.get(event.message().id());
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
				outcome.acknowledged(event, acknowledgedAt);
				outcome.earlierSendRecorded(event);
				continue;
			}
			if (failure != null) {
				outcome.failures().failed(event, failure);
				outcome.earlierSendRecorded(event);
			}
			else {
				outcome.stillInFlight(event);
			}
			outcome.stop(orderingKey(event));
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
	private void sendAndAwait(Tables tables, List<ClaimedEvent> round, long deadline, BatchOutcome outcome) {
		List<Sent> sent = new ArrayList<>(round.size());
		for (ClaimedEvent event : round) {
			OrderingKey key = orderingKey(event);
			if (outcome.skips(event, key) || System.nanoTime() > deadline || outcome.isInterrupted()) {
				continue;
			}
			OutboxTransport transport = this.transports.get(event.transport());
			if (transport == null) {
				outcome.failures().noTransportFor(event);
				outcome.stop(key);
				continue;
			}
			if (outcome.postponesForPause(event)) {
				outcome.stop(key);
				continue;
			}
			try {
				sent.add(new Sent(event, tables.of(event).send(transport, event)));
			}
			catch (RejectedExecutionException ex) {
				outcome.failures().noRoomFor(event);
				outcome.stop(key);
			}
			catch (RuntimeException ex) {
				outcome.failures().failed(event, ex);
				outcome.stop(key);
			}
		}
		for (Sent message : sent) {
			if (!tables.of(message.event()).awaitAcknowledgement(message, deadline, outcome)) {
				outcome.stop(orderingKey(message.event()));
			}
		}
	}

	/**
	 * Sends a message, counted as unresolved until its send completes: the count is down again before
	 * the acknowledgement the batch waits for completes.
	 */
	private CompletableFuture<Instant> send(OutboxTransport transport, ClaimedEvent event) {
		this.unresolvedSends.incrementAndGet();
		CompletableFuture<?> sending;
		try {
			sending = transport.send(event.message());
		}
		catch (RuntimeException ex) {
			this.unresolvedSends.decrementAndGet();
			throw ex;
		}
		// One stage for both, rather than a stage per step: this runs for every message sent.
		return sending.handle((acknowledgement, failure) -> {
			this.unresolvedSends.decrementAndGet();
			if (failure != null) {
				throw (failure instanceof CompletionException completion) ? completion
						: new CompletionException(failure);
			}
			return acknowledged(event);
		});
	}

	/**
	 * Notes when the event's destination acknowledged, on the thread that completes the send, and
	 * returns that time.
	 */
	private Instant acknowledged(ClaimedEvent event) {
		this.outages.destinationAcknowledged(Destination.of(event), System.nanoTime());
		return Instant.now();
	}

	private boolean awaitAcknowledgement(Sent message, long deadline, BatchOutcome outcome) {
		ClaimedEvent event = message.event();
		try {
			Instant acknowledgedAt = message.acknowledgement()
				.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			outcome.acknowledged(event, acknowledgedAt);
			return true;
		}
		catch (TimeoutException ex) {
			stillInFlight(message, outcome);
		}
		catch (ExecutionException ex) {
			outcome.failures().failed(event, ex.getCause());
		}
		catch (InterruptedException ex) {
			// Shutting down: nothing is known about the message, let alone that it failed.
			Thread.currentThread().interrupt();
			outcome.interrupted();
			stillInFlight(message, outcome);
		}
		return false;
	}

	/**
	 * Neither an attempt nor a sign of an outage: a slow handler is as late as a broker that stopped
	 * answering. What the send ends in decides, once it is known.
	 */
	private void stillInFlight(Sent message, BatchOutcome outcome) {
		outcome.stillInFlight(message.event());
		this.inFlight.add(message.event().message().id(), message.acknowledgement());
	}

	private record Sent(ClaimedEvent event, CompletableFuture<Instant> acknowledgement) {
	}

	/**
	 * The tables of a batch and the rows claimed in each. A row's sends are its table's delivery's:
	 * that delivery's relay then sees what the batch left in flight.
	 */
	private final class Tables {

		private final Map<BatchDelivery, ClaimedBatch> batches;

		/** The table of each row, when there are several tables. */
		private final @Nullable Map<ClaimedEvent, BatchDelivery> tableOfRow;

		private final List<ClaimedEvent> publishable = new ArrayList<>();

		private int claimed;

		Tables(int count) {
			this.batches = new LinkedHashMap<>(count * 2);
			this.tableOfRow = (count > 1) ? new IdentityHashMap<>() : null;
		}

		void claimed(BatchDelivery table, ClaimedBatch batch) {
			this.batches.put(table, batch);
			this.claimed += batch.events().size();
			List<ClaimedEvent> publishable = batch.publishable();
			this.publishable.addAll(publishable);
			if (this.tableOfRow != null) {
				publishable.forEach((event) -> this.tableOfRow.put(event, table));
			}
		}

		BatchDelivery of(ClaimedEvent event) {
			return (this.tableOfRow != null) ? this.tableOfRow.get(event) : BatchDelivery.this;
		}

		Predicate<ClaimedEvent> inTable(BatchDelivery table) {
			return (this.tableOfRow != null) ? (event) -> this.tableOfRow.get(event) == table : (event) -> true;
		}

		boolean noSendUnresolved() {
			for (BatchDelivery table : this.batches.keySet()) {
				if (table.unresolvedSends.get() != 0) {
					return false;
				}
			}
			return true;
		}

	}

}
