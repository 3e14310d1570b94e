package dev.outboxstarter.operations;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

/**
 * The running outbox as operations see it: the backlog, the rows by status, what this instance found
 * unavailable, its relay and fast path, and the few actions an operator or a test takes. The actuator
 * endpoint and health indicator, the metrics and the test kit read the engine through it alone.
 *
 * @since 0.1.0
 */
public interface OutboxOperations {

	/**
	 * Who publishes the captured events.
	 * @return {@code polling} (the fast path and the polling relay) or {@code log} (Debezium)
	 */
	String relayMode();

	/**
	 * The transports this instance publishes to.
	 * @return their names
	 */
	Set<String> transports();

	/**
	 * The backlog as the backlog monitor read it last, without a query.
	 * @return the latest reading, or {@code null} when no monitor runs: with the log relay no row stays
	 * in the table, and without metrics or a health indicator nobody reads it
	 */
	@Nullable BacklogSnapshot latestBacklog();

	/**
	 * Reads the backlog from the table now.
	 * @return the reading
	 */
	BacklogReading readBacklog();

	/**
	 * Counts the rows by status and transport.
	 * @return the counts
	 */
	List<EventCount> countByStatus();

	/**
	 * Lists a page of the rows of one status, in seq order.
	 * @param status the status
	 * @param offset rows to pass over
	 * @param limit most rows to return
	 * @param withValues whether to read the values that may hold personal data: payloads, headers,
	 * message keys, aggregate ids and last errors
	 * @return the rows
	 */
	List<StoredEvent> list(EventStatus status, int offset, int limit, boolean withValues);

	/**
	 * Deletes one pending or DEAD row: its event is never published.
	 * @param id the row id
	 * @return whether such a row existed
	 */
	boolean discard(UUID id);

	/**
	 * The transports this instance found unavailable and has not seen take a message since.
	 * @return their names, sorted
	 */
	Set<String> unavailableTransports();

	/**
	 * The destinations this instance pauses while their transport takes messages to others.
	 * @return the pauses
	 */
	List<PausedDestination> pausedDestinations();

	/**
	 * Whether this instance runs the polling relay.
	 * @return {@code true} if it does
	 */
	boolean relayRuns();

	/**
	 * When the polling relay last ran.
	 * @return the time, or {@code null} before its first run or when it does not run
	 */
	@Nullable Instant lastRelayRun();

	/**
	 * Whether this instance runs the fast path.
	 * @return {@code true} if it does
	 */
	boolean fastPathRuns();

	/**
	 * Committed events waiting in the fast path's queues.
	 * @return the number, 0 when the fast path does not run
	 */
	int fastPathQueueSize();

	/**
	 * Committed events the fast path's full queues left to the relay since start-up.
	 * @return the number, 0 when the fast path does not run
	 */
	long fastPathOverflowCount();

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

	/**
	 * What the backlog monitor knows.
	 *
	 * @param reading the latest successful reading, or {@code null} before the first
	 * @param readAt when it was taken, on this application's clock
	 * @param error why the latest attempt failed, or {@code null} when it succeeded
	 * @param databaseClockOffset how far the database clock is ahead of this application's
	 */
	record BacklogSnapshot(@Nullable BacklogReading reading, @Nullable Instant readAt, @Nullable String error,
			Duration databaseClockOffset) {

		/**
		 * Pending rows.
		 * @return the count, or NaN before the first reading
		 */
		public double pending() {
			return (this.reading != null) ? this.reading.pending() : Double.NaN;
		}

		/**
		 * DEAD rows.
		 * @return the count, or NaN before the first reading
		 */
		public double dead() {
			return (this.reading != null) ? this.reading.dead() : Double.NaN;
		}

		/**
		 * The age of the oldest pending row.
		 * @return the age in seconds, or NaN before the first reading
		 */
		public double oldestPendingAgeSeconds() {
			return (this.reading != null) ? this.reading.oldestPendingAge().toMillis() / 1000.0 : Double.NaN;
		}

	}

}
