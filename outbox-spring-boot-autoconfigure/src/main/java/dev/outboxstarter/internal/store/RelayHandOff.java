package dev.outboxstarter.internal.store;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * How the fast path hands a committed event over to the relay: the fast path owns the event for the
 * grace period after its row is written; after it, the relay takes it.
 * <p>
 * The capture writes the row due only at the end of the grace period ({@code available_at}, by the
 * database's clock), so the relays of every instance, which claim due rows only
 * ({@link OutboxStore#claimDue}), pass it over until then, while the fast path, which claims the rows
 * of the events handed to it ({@link OutboxStore#claimCaptured}), does not look at when they are due.
 * An event the fast path has not published by then (its queue was full, its instance stopped or died)
 * is left to the relay; one whose attempt failed is due when its backoff ends, like any other. Without
 * a fast path the relay takes a new event at once.
 *
 * @param gracePeriod how long the fast path owns a new event ({@code outbox.fast-path.grace-period}), or
 * zero without a fast path
 */
public record RelayHandOff(Duration gracePeriod) {

	/** Without a fast path: the relay takes a new event at once. */
	public static final RelayHandOff IMMEDIATE = new RelayHandOff(Duration.ZERO);

	public RelayHandOff {
		Assert.isTrue(!gracePeriod.isNegative(), "gracePeriod must not be negative");
	}

}
