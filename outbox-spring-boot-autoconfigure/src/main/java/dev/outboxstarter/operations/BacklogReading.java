package dev.outboxstarter.operations;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The backlog as one statement read it.
 *
 * @param pending pending rows
 * @param oldestPendingCreatedAt when the oldest pending row was written, or {@code null} when none is
 * pending
 * @param dead DEAD rows
 * @param databaseNow the database clock when it was read
 * @since 0.1.0
 */
public record BacklogReading(long pending, @Nullable Instant oldestPendingCreatedAt, long dead, Instant databaseNow) {

	/**
	 * How long the oldest pending row has waited, on the database clock.
	 * @return the age, zero when none is pending
	 */
	public Duration oldestPendingAge() {
		if (this.oldestPendingCreatedAt == null || this.oldestPendingCreatedAt.isAfter(this.databaseNow)) {
			return Duration.ZERO;
		}
		return Duration.between(this.oldestPendingCreatedAt, this.databaseNow);
	}

}
