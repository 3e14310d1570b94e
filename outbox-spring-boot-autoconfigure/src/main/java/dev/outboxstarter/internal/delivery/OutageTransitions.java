package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.OutboxStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * Where outages start and end, once a batch is committed: a transport the batch found unavailable is
 * noted in {@link Outages}, and a transport or paused destination that was unavailable and now
 * acknowledged a message is back, so the rows that failed meanwhile are made due at once: they would
 * otherwise wait out backoffs of up to {@code outbox.retry.max-delay} with the broker available.
 * <p>
 * Each outage of a transport is logged twice, whichever path finds it, however long it lasts: a
 * warning with its cause when it starts, a line when the transport takes messages again. Every failed
 * attempt in between is in the metrics and the rows' {@code last_error}, not in the log.
 */
final class OutageTransitions {

	private static final Log logger = LogFactory.getLog(OutageTransitions.class);

	private final OutboxStore store;

	private final TransactionTemplate transactionTemplate;

	private final Outages outages;

	/**
	 * Creates the transitions.
	 * @param store makes backed-off rows due
	 * @param transactionTemplate transactions on the outbox data source
	 * @param outages what this instance found unavailable
	 */
	OutageTransitions(OutboxStore store, TransactionTemplate transactionTemplate, Outages outages) {
		this.store = store;
		this.transactionTemplate = transactionTemplate;
		this.outages = outages;
	}

	/**
	 * Notes what a committed batch showed of outages.
	 * @param outcome what the batch did
	 */
	void batchCommitted(BatchOutcome outcome) {
		List<ClaimedEvent> acknowledged = outcome.acknowledgedEvents();
		if (this.outages.anyTransportUnavailable() || !outcome.failures().unavailableTransports().isEmpty()) {
			transports(acknowledged, outcome.failures());
		}
		if (!outcome.probedDestinations().isEmpty()) {
			destinations(acknowledged, outcome.probedDestinations());
		}
		this.outages.forgetEndedPauses();
	}

	/**
	 * Notes the transports that take messages again and those found unavailable.
	 */
	private void transports(List<ClaimedEvent> acknowledged, SendFailures failures) {
		Set<String> acknowledging = new HashSet<>();
		acknowledged.forEach((event) -> acknowledging.add(event.transport()));
		long now = System.nanoTime();
		for (String transport : acknowledging) {
			if (failures.unavailableTransports().contains(transport)) {
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
		for (String transport : failures.unavailableTransports()) {
			if (this.outages.transportUnavailable(transport, now)) {
				String error = failures.firstUnavailableErrorOf(transport);
				logger.warn("Outbox transport '" + transport + "' is unavailable"
						+ ((error != null) ? " (" + error + ")" : "") + "; its events stay pending and are "
						+ "retried with backoff, never DEAD for the outage. This is logged once: the next line says "
						+ "when it takes messages again; until then see the outbox.transports.unavailable gauge");
			}
		}
	}

	/**
	 * Ends the pause of each destination the batch tried again, its pause being over, and that
	 * acknowledged.
	 */
	private void destinations(List<ClaimedEvent> acknowledged, Set<Destination> probed) {
		for (Destination destination : probed) {
			if (acknowledged.stream().anyMatch(destination::matches) && this.outages.endPause(destination)) {
				Integer resumed = this.transactionTemplate.execute(
						(status) -> this.store.resumeBackedOff(destination.transport(), destination.name()));
				logger.info("Outbox " + destination + " takes messages again; " + resumed
						+ " events waiting out a retry backoff are due now");
			}
		}
	}

}
