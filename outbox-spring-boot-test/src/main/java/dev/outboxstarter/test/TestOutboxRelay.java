package dev.outboxstarter.test;

import java.time.Duration;

import dev.outboxstarter.core.publish.BatchDelivery;
import dev.outboxstarter.core.publish.DeliveryResult;
import dev.outboxstarter.core.publish.PublishPath;
import dev.outboxstarter.core.store.ClaimedBatch;
import dev.outboxstarter.core.store.EventStatus;
import dev.outboxstarter.core.store.OutboxStore;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs the outbox relay from a test, so that the test knows when everything committed has been
 * published instead of waiting for the relay's next poll. After {@link #drain()}, what did not
 * arrive is not on its way: assert on {@link PublishedOutboxEvents} (or the broker) directly.
 */
public class TestOutboxRelay {

	/** Long enough for a busy build machine, short enough that a stuck event fails the test soon. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final int BATCH_SIZE = 100;

	private final BatchDelivery delivery;

	private final OutboxStore store;

	TestOutboxRelay(BatchDelivery delivery, OutboxStore store) {
		this.delivery = delivery;
		this.store = store;
	}

	/**
	 * Publishes every committed event that is pending, and waits up to 10 seconds for those the fast
	 * path of this instance is publishing at the same time. Returns once no event is pending.
	 * @throws IllegalStateException if called inside a transaction, whose events are not committed yet
	 * @throws AssertionError if events are still pending after 10 seconds (their transport fails, for
	 * example), naming them
	 */
	public void drain() {
		if (TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("drain() publishes committed events, but it was called inside a "
					+ "transaction whose events are not committed yet: call it outside the transaction, e.g. after "
					+ "TestTransaction.flagForCommit() and TestTransaction.end() in a @Transactional test");
		}
		try {
			Awaitility.await()
				.atMost(TIMEOUT)
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> publishDue() >= 0 && pending() == 0);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError(pending() + " outbox events are still pending after " + TIMEOUT.toSeconds()
					+ " seconds, e.g. " + this.store.list(EventStatus.PENDING, 0, 5, false)
					+ ": their transport fails or does not acknowledge them (see last_error)");
		}
	}

	private int publishDue() {
		int published = 0;
		DeliveryResult result;
		do {
			result = this.delivery.deliver(PublishPath.RELAY,
					(store) -> ClaimedBatch.unchecked(store.claimDue(BATCH_SIZE, 0)));
			published += result.published();
		}
		while (result.published() > 0);
		return published;
	}

	private long pending() {
		return this.store.countByStatus()
			.stream()
			.filter((count) -> count.status() == EventStatus.PENDING)
			.mapToLong((count) -> count.events())
			.sum();
	}

}
