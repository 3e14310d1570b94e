package dev.outboxstarter.test;

import java.time.Duration;

import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.OutboxTesting;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs the outbox relay from a test, so that the test knows when everything committed has been
 * published instead of waiting for the relay's next poll. After {@link #drain()}, what did not
 * arrive is not on its way: assert on {@link PublishedOutboxEvents} (or the broker) directly.
 *
 * @since 0.1.0
 */
public class TestOutboxRelay {

	/** Long enough for a busy build machine, short enough that a stuck event fails the test soon. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final OutboxMonitoring monitoring;

	private final OutboxTesting testing;

	TestOutboxRelay(OutboxMonitoring monitoring, OutboxTesting testing) {
		this.monitoring = monitoring;
		this.testing = testing;
	}

	/**
	 * Publishes every committed event that is pending, and waits up to 10 seconds for those the fast
	 * path of this instance is publishing at the same time. Returns once no event is pending but delayed
	 * events whose time has not come, which it leaves (make such a delay short in the test's properties,
	 * e.g. {@code outbox.routes[<class>].delay=1s}).
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
				.until(() -> this.testing.publishDue() >= 0 && pending() == 0);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError(pending() + " outbox events are still pending after " + TIMEOUT.toSeconds()
					+ " seconds, e.g. " + this.monitoring.list(EventStatus.PENDING, 0, 5, false)
					+ ": their transport fails or does not acknowledge them (see last_error)");
		}
	}

	private long pending() {
		return this.monitoring.readBacklog().pending();
	}

}
