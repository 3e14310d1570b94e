package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * Every outbox (of another data source, of a tenant) has a delivery of its own, and all of them share
 * the {@link Outages}: the delivery that sees an outage end makes its own table's rows due at once, and
 * every other one makes its table's rows due before its next batch ({@link #catchUpWithEndedOutages}).
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

	/** The ended outages whose rows this table has made due, by transport. */
	private final Map<String, Long> resumedOutages;

	private volatile long resumedOutageCount;

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
		// Outages that ended before this table had a delivery concern rows that no outage held back.
		this.resumedOutageCount = outages.endedOutageCount();
		this.resumedOutages = new HashMap<>(outages.endedOutagesByTransport());
	}

	/**
	 * Makes this table's rows of every transport whose outage another outbox's delivery saw end since
	 * due at once, as that delivery did with its own table's: they would otherwise wait out backoffs of
	 * up to {@code outbox.retry.max-delay} with the broker available. Run before each batch; costs one
	 * read when no outage ended.
	 */
	void catchUpWithEndedOutages() {
		if (this.outages.endedOutageCount() == this.resumedOutageCount) {
			return;
		}
		synchronized (this) {
			long count = this.outages.endedOutageCount();
			if (count == this.resumedOutageCount) {
				return;
			}
			this.outages.endedOutagesByTransport().forEach((transport, ended) -> {
				if (ended > this.resumedOutages.getOrDefault(transport, 0L)) {
					this.resumedOutages.put(transport, ended);
					Integer resumed = this.transactionTemplate
						.execute((status) -> this.store.resumeBackedOff(transport));
					if (resumed != null && resumed > 0 && logger.isDebugEnabled()) {
						logger.debug(resumed + " events of transport '" + transport + "' waiting out a retry backoff "
								+ "are due now that it takes messages again");
					}
				}
			});
			this.resumedOutageCount = count;
		}
	}

	private synchronized void resumedOwnTable(String transport) {
		Long ended = this.outages.endedOutagesByTransport().get(transport);
		if (ended != null) {
			this.resumedOutages.merge(transport, ended, Math::max);
		}
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
				resumedOwnTable(transport);
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
