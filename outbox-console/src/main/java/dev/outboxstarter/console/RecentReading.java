package dev.outboxstarter.console;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A value read from the outbox table no more often than once per {@code maxAge}, however many open
 * pages ask for it: the readers that come while it is read wait for that reading rather than start
 * their own.
 *
 * @param <T> the value's type
 */
final class RecentReading<T> {

	private final Supplier<T> read;

	private final long maxAgeNanos;

	private final LongSupplier nanoTime;

	private @Nullable T value;

	private long readAtNanos;

	RecentReading(Supplier<T> read, Duration maxAge, LongSupplier nanoTime) {
		this.read = read;
		this.maxAgeNanos = maxAge.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * The value as read at most {@code maxAge} ago, read now if it was not.
	 * @return the value
	 */
	synchronized T get() {
		T value = this.value;
		long now = this.nanoTime.getAsLong();
		if (value == null || now - this.readAtNanos >= this.maxAgeNanos) {
			value = this.read.get();
			this.value = value;
			this.readAtNanos = now;
		}
		return value;
	}

	/**
	 * Forgets the value, so that the next {@link #get()} reads it: the console changed the table.
	 */
	synchronized void forget() {
		this.value = null;
	}

}
