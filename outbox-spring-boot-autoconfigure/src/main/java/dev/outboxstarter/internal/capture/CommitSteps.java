package dev.outboxstarter.internal.capture;

import java.util.List;

import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.CommittedEventsListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

/**
 * What the buffer of each transaction does with its events as the transaction commits: flush the
 * pending changes, so that changed aggregates raise their events; publish the events a flush deferred;
 * insert the rows, just before the commit; and, once it has committed, hand the rows to the fast path
 * and the other listeners of committed events. Shared by the buffers of every transaction.
 */
public final class CommitSteps {

	private static final Log logger = LogFactory.getLog(CommitSteps.class);

	private final List<CaptureFlushHook> flushHooks;

	private final DeferredEventPublisher deferredEvents;

	private final OutboxStore store;

	private final RelayHandOff relayHandOff;

	private final List<CommittedEventsListener> committedListeners;

	/**
	 * Creates the steps.
	 * @param flushHooks flush pending changes before the rows are written
	 * @param publisher publishes the events pulled from flushed aggregates
	 * @param store writes the rows
	 * @param relayHandOff when the relay takes new rows over from the fast path
	 * @param committedListeners told the rows after commit
	 */
	public CommitSteps(List<CaptureFlushHook> flushHooks, ApplicationEventPublisher publisher, OutboxStore store,
			RelayHandOff relayHandOff, List<CommittedEventsListener> committedListeners) {
		this.flushHooks = List.copyOf(flushHooks);
		this.deferredEvents = new DeferredEventPublisher(publisher);
		this.store = store;
		this.relayHandOff = relayHandOff;
		this.committedListeners = List.copyOf(committedListeners);
	}

	void flush() {
		this.flushHooks.forEach(CaptureFlushHook::flush);
	}

	void publishDeferred(Object event) {
		this.deferredEvents.publish(event);
	}

	void insert(List<CapturedEvent> events) {
		this.store.insert(events, this.relayHandOff.gracePeriod());
	}

	/**
	 * Hands a transaction's rows to the listeners of committed events once it has committed. What one of
	 * them throws is logged: the rows are committed, and the relay publishes them after the grace period.
	 * @param events the rows written
	 * @param unwritten the events captured but not written, which only a transaction manager that does
	 * not run {@link CaptureCommitListener} leaves
	 */
	void committed(List<CapturedEvent> events, List<CapturedEvent> unwritten) {
		if (!unwritten.isEmpty()) {
			logger.error(unwritten.size() + " outbox event(s) of a committed transaction were not written, the first "
					+ unwritten.get(0).eventType() + " to " + unwritten.get(0).destination() + ": they were captured "
					+ "after the transaction's before-commit callbacks began and its transaction manager does not "
					+ "tell the outbox when the commit begins. Use a transaction manager that extends "
					+ "AbstractPlatformTransactionManager as a bean, or capture the first outbox event of the "
					+ "transaction before it commits");
		}
		if (events.isEmpty()) {
			return;
		}
		for (CommittedEventsListener listener : this.committedListeners) {
			try {
				listener.committed(events);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not hand committed outbox events to " + listener, ex);
			}
		}
	}

}
