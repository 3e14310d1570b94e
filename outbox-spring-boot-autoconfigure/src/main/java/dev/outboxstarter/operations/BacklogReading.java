package dev.outboxstarter.operations;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The backlog as one statement read it.
 *
 * @param pending pending rows that are due: all but the delayed events whose time has not come
 * @param oldestPendingCreatedAt when the oldest pending row became due: when it was written, or for a
 * delayed event its delivery time; {@code null} when none is pending
 * @param dead DEAD rows
 * @param databaseNow the database clock when it was read
 * @param scheduled delayed events whose time has not come yet, which are not backlog
 * @since 0.1.0
 */
public record BacklogReading(long pending, @Nullable Instant oldestPendingCreatedAt, long dead, Instant databaseNow,
		long scheduled) {

	/**
	 * A reading with no delayed events waiting for their time.
	 * @param pending pending rows
	 * @param oldestPendingCreatedAt when the oldest pending row became due, or {@code null} when none is
	 * pending
	 * @param dead DEAD rows
	 * @param databaseNow the database clock when it was read
	 */
	public BacklogReading(long pending, @Nullable Instant oldestPendingCreatedAt, long dead, Instant databaseNow) {
		this(pending, oldestPendingCreatedAt, dead, databaseNow, 0);
	}

	/**
	 * How long the oldest pending row has waited since it became due, on the database clock.
	 * @return the age, zero when none is pending
	 */
	public Duration oldestPendingAge() {
		if (this.oldestPendingCreatedAt == null || this.oldestPendingCreatedAt.isAfter(this.databaseNow)) {
			return Duration.ZERO;
		}
		return Duration.between(this.oldestPendingCreatedAt, this.databaseNow);
	}

}
