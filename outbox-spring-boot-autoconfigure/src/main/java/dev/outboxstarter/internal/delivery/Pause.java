package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;

/**
 * Nothing is sent to a destination until {@code until} ({@link System#nanoTime()}): the
 * {@code times}-th pause in a row after it failed with {@code error}.
 */
record Pause(long until, Duration length, Instant endsAt, int times, String error) {

	static Pause after(int times, RetryPolicy retryPolicy, String error, long now) {
		Duration length = retryPolicy.delayAfter(times);
		return new Pause(now + length.toNanos(), length, Instant.now().plus(length), times, error);
	}

	boolean isActiveAt(long now) {
		return this.until - now > 0;
	}

	Duration remainingAt(long now) {
		return Duration.ofNanos(Math.max(0, this.until - now));
	}

}
