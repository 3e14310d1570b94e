package dev.outboxstarter.core.capture.jpa;

import java.util.List;

import dev.outboxstarter.core.capture.AggregateRef;
import dev.outboxstarter.core.capture.DomainEventMethods;
import dev.outboxstarter.core.capture.OutboxCapture;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.engine.spi.TransactionCompletionCallbacks.BeforeCompletionCallback;
import org.hibernate.event.spi.PreDeleteEvent;
import org.hibernate.event.spi.PreDeleteEventListener;
import org.hibernate.event.spi.PreUpdateEvent;
import org.hibernate.event.spi.PreUpdateEventListener;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Pulls the {@code @DomainEvents} of aggregates that Hibernate flushes as changed or removed without
 * a repository call (Spring Data alone drops those events), clears them from the aggregate, and
 * hands them to the capture.
 * <p>
 * The events are published once the flush is over, not inside it. A flush during the commit comes
 * after Spring's before-commit callbacks, so a Hibernate before-completion callback writes what it
 * raised, still inside the transaction.
 */
class FlushedAggregateEventsListener implements PreUpdateEventListener, PreDeleteEventListener {

	private final ObjectProvider<OutboxCapture> capture;

	FlushedAggregateEventsListener(ObjectProvider<OutboxCapture> capture) {
		this.capture = capture;
	}

	@Override
	public boolean onPreUpdate(PreUpdateEvent event) {
		pullEvents(event.getEntity(), event.getId(), event.getSession());
		return false;
	}

	@Override
	public boolean onPreDelete(PreDeleteEvent event) {
		pullEvents(event.getEntity(), event.getId(), event.getSession());
		return false;
	}

	private void pullEvents(Object aggregate, Object id, SharedSessionContractImplementor session) {
		DomainEventMethods methods = DomainEventMethods.of(aggregate.getClass());
		if (methods == null) {
			return;
		}
		List<Object> events = methods.events(aggregate);
		if (events.isEmpty()) {
			return;
		}
		methods.clear(aggregate);
		OutboxCapture capture = this.capture.getObject();
		AggregateRef origin = new AggregateRef(aggregate.getClass().getSimpleName(), id);
		events.forEach((event) -> capture.deferUntilCommit(event, origin));
		if (session.isEventSource()) {
			session.asEventSource()
				.getActionQueue()
				.registerCallback((BeforeCompletionCallback) (completing) -> capture.writeCaptured());
		}
	}

}
