package dev.outboxstarter.core.publish;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.outboxstarter.core.retry.RetryPolicy;
import dev.outboxstarter.core.store.ClaimedEvent;
import org.jspecify.annotations.Nullable;

/**
 * The outages one instance has seen, as {@link BatchDelivery} tells them apart: transports found
 * unavailable that have not acknowledged a message since, and destinations paused because they failed
 * as unavailable while their transport took messages to other destinations. The fast path and the relay
 * update it from their own threads, and what one finds the other goes by.
 */
public final class Outages {

	private final RetryPolicy retryPolicy;

	private final Set<String> unavailableTransports = ConcurrentHashMap.newKeySet();

	/** When each destination last acknowledged a message ({@link System#nanoTime()}). */
	private final Map<Destination, AtomicLong> lastAcknowledged = new ConcurrentHashMap<>();

	private final Map<Destination, Pause> pausedDestinations = new ConcurrentHashMap<>();

	/**
	 * Creates the record of outages.
	 * @param retryPolicy the lengths of the pauses of an unavailable destination
	 */
	Outages(RetryPolicy retryPolicy) {
		this.retryPolicy = retryPolicy;
	}

	/**
	 * The transports found unavailable that have not acknowledged a message since.
	 * @return their names, in order
	 */
	public SortedSet<String> unavailableTransports() {
		return Collections.unmodifiableSortedSet(new TreeSet<>(this.unavailableTransports));
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

	void transportsUnavailable(Collection<String> transports) {
		this.unavailableTransports.addAll(transports);
	}

	/**
	 * Notes that the transport acknowledged a message.
	 * @return whether it was unavailable until now
	 */
	boolean transportAcknowledged(String transport) {
		return this.unavailableTransports.remove(transport);
	}

	void destinationAcknowledged(Destination destination, long now) {
		AtomicLong last = this.lastAcknowledged.get(destination);
		if (last == null) {
			last = this.lastAcknowledged.computeIfAbsent(destination, (key) -> new AtomicLong(now));
		}
		last.accumulateAndGet(now, Math::max);
	}

	/**
	 * Whether another destination of the destination's transport acknowledged a message at or after
	 * {@code since}: the broker was taking messages then.
	 */
	boolean acknowledgedElsewhereSince(Destination destination, long since) {
		for (Map.Entry<Destination, AtomicLong> acknowledged : this.lastAcknowledged.entrySet()) {
			Destination other = acknowledged.getKey();
			if (other.transport().equals(destination.transport()) && !other.equals(destination)
					&& acknowledged.getValue().get() - since >= 0) {
				return true;
			}
		}
		return false;
	}

	@Nullable Pause pauseOf(ClaimedEvent event) {
		return this.pausedDestinations.isEmpty() ? null : this.pausedDestinations.get(Destination.of(event));
	}

	/** Pauses the destination, for longer than before if it was paused already. */
	Pause pause(Destination destination, String error, long now) {
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

}
