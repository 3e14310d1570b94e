package dev.outboxstarter.operations;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What the backlog monitor knows: {@link OutboxMonitoring#latestBacklog()}.
 *
 * @param reading the latest successful reading, or {@code null} before the first
 * @param readAt when it was taken, on this application's clock
 * @param error why the latest attempt failed, or {@code null} when it succeeded
 * @param databaseClockOffset how far the database clock is ahead of this application's
 * @since 0.1.0
 */
public record BacklogSnapshot(@Nullable BacklogReading reading, @Nullable Instant readAt, @Nullable String error,
		Duration databaseClockOffset) {

	/**
	 * Pending rows.
	 * @return the count, or NaN before the first reading
	 */
	public double pending() {
		return (this.reading != null) ? this.reading.pending() : Double.NaN;
	}

	/**
	 * Delayed events whose time has not come yet.
	 * @return the count, or NaN before the first reading
	 */
	public double scheduled() {
		return (this.reading != null) ? this.reading.scheduled() : Double.NaN;
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
