package dev.outboxstarter.internal.capture;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The events that flushes of one transaction pulled from aggregates, held until the flush is over and
 * then published to the application's listeners in the order they were raised, the rows of the outbox
 * events among them taking their place in the transaction's batch as they are.
 */
final class DeferredEvents {

	private final Deque<DeferredEvent> events = new ArrayDeque<>();

	private boolean publishing;

	/**
	 * Holds an outbox event.
	 * @param event the event
	 * @param serialized the event routed and serialized
	 * @param aggregate its aggregate, resolved when the event is published (a new aggregate's id may be
	 * known only once the flush has inserted it)
	 */
	void add(Object event, SerializedEvent serialized, Supplier<AggregateRef> aggregate) {
		this.events.add(new DeferredEvent(event, serialized, aggregate));
	}

	/**
	 * Holds an event that is not an outbox event, only to publish it in its turn.
	 * @param event the event
	 */
	void addPublication(Object event) {
		this.events.add(new DeferredEvent(event, null, null));
	}

	boolean isEmpty() {
		return this.events.isEmpty();
	}

	boolean isPublishing() {
		return this.publishing;
	}

	/**
	 * Drops the events, which a rollback to a savepoint took back.
	 */
	void clear() {
		this.events.clear();
	}

	/**
	 * Publishes the events held, in order, adding the rows of each outbox event among them to the
	 * transaction's before it is published. A listener may raise more, which are published in their
	 * turn; a call while they are being published does nothing, so that an event a listener captures
	 * comes after the one it listens to.
	 * @param rows the rows of the transaction
	 * @param steps publishes the events
	 */
	void publish(CapturedRows rows, CommitSteps steps) {
		if (this.events.isEmpty() || this.publishing) {
			return;
		}
		this.publishing = true;
		try {
			DeferredEvent next;
			while ((next = this.events.poll()) != null) {
				if (next.serialized() != null && next.aggregate() != null) {
					rows.addAll(next.serialized().rowsFor(next.aggregate().get(), null));
				}
				steps.publishDeferred(next.event());
			}
		}
		finally {
			this.publishing = false;
		}
	}

	/**
	 * An outbox event with its serialized form and its aggregate, or another event with neither.
	 */
	private record DeferredEvent(Object event, @Nullable SerializedEvent serialized,
			@Nullable Supplier<AggregateRef> aggregate) {
	}

}
