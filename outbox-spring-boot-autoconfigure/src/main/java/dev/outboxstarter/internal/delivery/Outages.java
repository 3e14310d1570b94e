package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.operations.PausedDestination;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The outages one instance has seen, as {@link BatchDelivery} tells them apart: transports found
 * unavailable that have not acknowledged a message since, and destinations paused because they failed
 * as unavailable while their transport took messages to other destinations. The fast path and the relay
 * update it from their own threads, and what one finds the other goes by.
 * <p>
 * Its memory is bounded whatever the number of destinations (one per tenant and region, say): two
 * acknowledgements per transport, and at most {@value #MAX_PAUSED_DESTINATIONS} paused destinations,
 * each forgotten once its pause has been over for {@code outbox.retry.max-delay}.
 */
public final class Outages {

	/**
	 * The most destinations paused at once. A further one that fails as unavailable is not paused: its
	 * events back off like any failed attempt, still never {@code DEAD} for it.
	 */
	static final int MAX_PAUSED_DESTINATIONS = 1000;

	private static final Log logger = LogFactory.getLog(Outages.class);

	private final RetryPolicy retryPolicy;

	/** By transport, when it was found unavailable ({@link System#nanoTime()}). */
	private final Map<String, Long> unavailableTransports = new ConcurrentHashMap<>();

	/** By transport, its latest acknowledgements. */
	private final Map<String, LatestAcknowledgements> acknowledgements = new ConcurrentHashMap<>();

	private final Map<Destination, Pause> pausedDestinations = new ConcurrentHashMap<>();

	/**
	 * By transport, how many of its outages have ended: every outbox's delivery makes its own table's
	 * rows of the transport that wait out a retry backoff due, once per ended outage, whichever outbox's
	 * delivery saw the outage end.
	 */
	private final Map<String, Long> endedOutages = new ConcurrentHashMap<>();

	/** The sum of {@link #endedOutages}: a delivery with nothing to catch up reads only this. */
	private final AtomicLong endedOutageCount = new AtomicLong();

	/** Whether the cap on pauses has been logged since it was last reached. */
	private final AtomicBoolean capLogged = new AtomicBoolean();

	/**
	 * Creates the record of outages.
	 * @param retryPolicy the lengths of the pauses of an unavailable destination
	 */
	public Outages(RetryPolicy retryPolicy) {
		this.retryPolicy = retryPolicy;
	}

	/**
	 * The transports found unavailable that have not acknowledged a message since.
	 * @return their names, in order
	 */
	public SortedSet<String> unavailableTransports() {
		return Collections.unmodifiableSortedSet(new TreeSet<>(this.unavailableTransports.keySet()));
	}

	/**
	 * The destinations nothing is sent to for now, because they failed as unavailable while their
	 * transport took messages to other destinations.
	 * @return the paused destinations
	 */
	public List<PausedDestination> pausedDestinations() {
		long now = System.nanoTime();
		List<PausedDestination> paused = new ArrayList<>();
		this.pausedDestinations.forEach((destination, pause) -> {
			if (!isForgotten(pause, now)) {
				paused.add(new PausedDestination(destination.transport(), destination.name(), pause.endsAt(),
						pause.times(), pause.error()));
			}
		});
		return paused;
	}

	boolean anyTransportUnavailable() {
		return !this.unavailableTransports.isEmpty();
	}

	/**
	 * Notes that the transport was found unavailable. The fast path and the relay may both find it so
	 * at once: one of them is told it is new.
	 * @return whether it was available until now
	 */
	boolean transportUnavailable(String transport, long now) {
		return this.unavailableTransports.putIfAbsent(transport, now) == null;
	}

	/**
	 * Notes that the transport acknowledged a message.
	 * @return how long it had been unavailable, or {@code null} when it was available
	 */
	@Nullable Duration transportAcknowledged(String transport, long now) {
		Long since = this.unavailableTransports.remove(transport);
		if (since == null) {
			return null;
		}
		this.endedOutages.merge(transport, 1L, Long::sum);
		this.endedOutageCount.incrementAndGet();
		return Duration.ofNanos(now - since);
	}

	/**
	 * How many outages of any transport have ended.
	 * @return the count
	 */
	long endedOutageCount() {
		return this.endedOutageCount.get();
	}

	/**
	 * How many outages of each transport have ended.
	 * @return the counts by transport
	 */
	Map<String, Long> endedOutagesByTransport() {
		return Map.copyOf(this.endedOutages);
	}

	void destinationAcknowledged(Destination destination, long now) {
		LatestAcknowledgements latest = this.acknowledgements.get(destination.transport());
		if (latest == null) {
			latest = this.acknowledgements.computeIfAbsent(destination.transport(),
					(transport) -> new LatestAcknowledgements());
		}
		latest.acknowledged(destination.name(), now);
	}

	/**
	 * Whether another destination of the destination's transport acknowledged a message at or after
	 * {@code since}: the broker was taking messages then.
	 */
	boolean acknowledgedElsewhereSince(Destination destination, long since) {
		LatestAcknowledgements latest = this.acknowledgements.get(destination.transport());
		return latest != null && latest.elsewhereSince(destination.name(), since);
	}

	@Nullable Pause pauseOf(ClaimedEvent event) {
		return this.pausedDestinations.isEmpty() ? null : this.pausedDestinations.get(Destination.of(event));
	}

	/**
	 * Pauses the destination, for longer than before if it was paused already.
	 * @return the pause, or {@code null} when {@value #MAX_PAUSED_DESTINATIONS} other destinations are
	 * paused
	 */
	@Nullable Pause pause(Destination destination, String error, long now) {
		if (!this.pausedDestinations.containsKey(destination)) {
			if (this.pausedDestinations.size() >= MAX_PAUSED_DESTINATIONS) {
				if (this.capLogged.compareAndSet(false, true)) {
					logger.warn("Outbox pauses at most " + MAX_PAUSED_DESTINATIONS + " destinations at once; "
							+ destination + " and any further one that fails as unavailable are not paused: their "
							+ "events back off like failed attempts (never DEAD for it) until pauses end");
				}
				return null;
			}
			this.capLogged.set(false);
		}
		return this.pausedDestinations.compute(destination, (key, previous) -> Pause
			.after((previous != null) ? previous.times() + 1 : 1, this.retryPolicy, error, now));
	}

	/**
	 * Ends the destination's pause.
	 * @return whether it was paused
	 */
	boolean endPause(Destination destination) {
		return this.pausedDestinations.remove(destination) != null;
	}

	/**
	 * Forgets the pauses that ended so long ago that their destinations evidently get no events any more
	 * (their events discarded, their route changed): each would otherwise cost a look-up per event for
	 * good.
	 */
	void forgetEndedPauses() {
		if (!this.pausedDestinations.isEmpty()) {
			long now = System.nanoTime();
			this.pausedDestinations.values().removeIf((pause) -> isForgotten(pause, now));
		}
	}

	/** Whether the pause ended more than {@code outbox.retry.max-delay} ago. */
	private boolean isForgotten(Pause pause, long now) {
		return pause.until() - (now - this.retryPolicy.maxDelay().toNanos()) < 0;
	}

	/**
	 * A transport's latest acknowledgement, to which destination, and its latest acknowledgement to any
	 * other destination than that one. For any destination, the latest acknowledgement elsewhere is then
	 * one of the two, so the memory does not grow with the destinations.
	 */
	private static final class LatestAcknowledgements {

		private @Nullable String destination;

		/** When {@code destination} acknowledged ({@link System#nanoTime()}). */
		private long at;

		private boolean elsewhere;

		/** When a destination other than {@code destination} last acknowledged, if {@code elsewhere}. */
		private long elsewhereAt;

		synchronized void acknowledged(String destination, long now) {
			if (destination.equals(this.destination)) {
				this.at = later(this.at, now);
			}
			else if (this.destination == null || now - this.at >= 0) {
				// The previous latest is now the latest elsewhere: it was later than any other.
				if (this.destination != null) {
					this.elsewhere = true;
					this.elsewhereAt = this.at;
				}
				this.destination = destination;
				this.at = now;
			}
			else if (!this.elsewhere || now - this.elsewhereAt > 0) {
				this.elsewhere = true;
				this.elsewhereAt = now;
			}
		}

		synchronized boolean elsewhereSince(String destination, long since) {
			if (this.destination == null) {
				return false;
			}
			if (!destination.equals(this.destination)) {
				return this.at - since >= 0;
			}
			return this.elsewhere && this.elsewhereAt - since >= 0;
		}

		private static long later(long one, long other) {
			return (other - one > 0) ? other : one;
		}

	}

}
