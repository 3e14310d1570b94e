package dev.outboxstarter.operations;

import java.util.List;

import dev.outboxstarter.spi.CapturedEvent;

/**
 * What a test needs from the running outbox beyond {@link OutboxMonitoring}: the events its
 * transaction captured so far, and what is due published now instead of at the relay's next poll. The
 * test kit ({@code outbox-spring-boot-test}) builds its views and its relay on it.
 *
 * @since 0.1.0
 */
public interface OutboxTesting {

	/**
	 * Publishes the due pending events now, as the relay does, one batch after another until a batch
	 * publishes nothing; also when the relay does not run.
	 * @return the events published
	 */
	int publishDue();

	/**
	 * The events the current transaction has captured so far, after flushing it so that the events of
	 * aggregates changed since its last flush are among them.
	 * @return the events, in capture order; empty outside a transaction
	 */
	List<CapturedEvent> flushAndListCaptured();

}
