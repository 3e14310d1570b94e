package dev.outboxstarter.internal.capture;

import java.util.List;

import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.CommittedEventsListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * What the buffer of each transaction does with its events as the transaction commits: flush the
 * pending changes, so that changed aggregates raise their events; publish the events a flush deferred;
 * and, once the rows are written and committed, hand them to the listeners of committed events of
 * their outbox ({@link CaptureTarget}), its fast path among them. Shared by the buffers of every
 * transaction.
 */
public final class CommitSteps {

	private static final Log logger = LogFactory.getLog(CommitSteps.class);

	private final List<CaptureFlushHook> flushHooks;

	private final DeferredEventPublisher deferredEvents;

	/**
	 * Creates the steps.
	 * @param flushHooks flush pending changes before the rows are written
	 * @param publisher publishes the events pulled from flushed aggregates
	 */
	public CommitSteps(List<CaptureFlushHook> flushHooks, ApplicationEventPublisher publisher) {
		this.flushHooks = List.copyOf(flushHooks);
		this.deferredEvents = new DeferredEventPublisher(publisher);
	}

	void flush() {
		this.flushHooks.forEach(CaptureFlushHook::flush);
	}

	void publishDeferred(Object event) {
		this.deferredEvents.publish(event);
	}

	/**
	 * Hands a transaction's rows to the listeners of committed events of their outbox once it has
	 * committed. What one of them throws is logged: the rows are committed, and the relay publishes them
	 * after the grace period.
	 * @param target the outbox the rows were written to, {@code null} if the transaction captured nothing
	 * @param events the rows written
	 * @param unwritten the events captured but not written, which only a transaction manager that does
	 * not run {@link CaptureCommitListener} leaves
	 */
	void committed(@Nullable CaptureTarget target, List<CapturedEvent> events, List<CapturedEvent> unwritten) {
		if (!unwritten.isEmpty()) {
			logger.error(unwritten.size() + " outbox event(s) of a committed transaction were not written, the first "
					+ unwritten.get(0).eventType() + " to " + unwritten.get(0).destination() + ": they were captured "
					+ "after the transaction's before-commit callbacks began and its transaction manager does not "
					+ "tell the outbox when the commit begins. Use a transaction manager that extends "
					+ "AbstractPlatformTransactionManager as a bean, or capture the first outbox event of the "
					+ "transaction before it commits");
		}
		if (target == null || events.isEmpty()) {
			return;
		}
		for (CommittedEventsListener listener : target.committedListeners()) {
			try {
				listener.committed(events);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not hand committed outbox events to " + listener, ex);
			}
		}
	}

}
