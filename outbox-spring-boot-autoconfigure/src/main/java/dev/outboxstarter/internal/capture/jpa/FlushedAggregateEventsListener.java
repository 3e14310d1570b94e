package dev.outboxstarter.internal.capture.jpa;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.outboxstarter.internal.capture.AggregateContext;
import dev.outboxstarter.internal.capture.AggregateRef;
import dev.outboxstarter.internal.capture.OutboxCapture;
import jakarta.transaction.Synchronization;
import org.hibernate.event.spi.EventSource;
import org.hibernate.event.spi.FlushEntityEvent;
import org.hibernate.event.spi.FlushEntityEventListener;
import org.hibernate.event.spi.MergeContext;
import org.hibernate.event.spi.MergeEvent;
import org.hibernate.event.spi.MergeEventListener;
import org.hibernate.persister.entity.EntityPersister;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

/**
 * Pulls the pending {@code @DomainEvents} of every aggregate a Hibernate session flushes (changed or
 * not; saved, persisted, reached by a cascade or removed) and of every aggregate merged into it from
 * outside (whose managed copy does not hold its events), clears them from the aggregate and hands them
 * to the capture. Spring Data alone publishes only the events of aggregates passed to a repository's
 * {@code save()} or {@code delete()}; those are left to it.
 * <p>
 * The events are published once the flush is over, before the commit. The flush a session runs at
 * commit comes after Spring's before-commit callbacks, so a synchronization of the session's own
 * transaction writes what that flush raised, still inside the transaction. Hibernate runs it at
 * commit and forgets it at rollback, leaving nothing behind in the session.
 */
class FlushedAggregateEventsListener implements FlushEntityEventListener, MergeEventListener {

	/** Resolved once: the listener runs for every entity of every flush. */
	private final Supplier<OutboxCapture> capture;

	FlushedAggregateEventsListener(ObjectProvider<OutboxCapture> capture) {
		this.capture = SingletonSupplier.of(capture::getObject);
	}

	@Override
	public void onFlushEntity(FlushEntityEvent event) {
		Object aggregate = event.getEntity();
		DomainEventMethods methods = DomainEventMethods.of(aggregate.getClass());
		if (methods == null) {
			return;
		}
		List<Object> events = pendingEvents(aggregate, methods);
		if (events.isEmpty()) {
			return;
		}
		AggregateRef origin = new AggregateRef(aggregate.getClass().getSimpleName(), event.getEntityEntry().getId());
		defer(aggregate, methods, events, () -> origin, event.getSession());
	}

	@Override
	public void onMerge(MergeEvent event) {
		pullFromMerged(event);
	}

	@Override
	public void onMerge(MergeEvent event, MergeContext copiedAlready) {
		pullFromMerged(event);
	}

	private void pullFromMerged(MergeEvent event) {
		Object merged = event.getEntity();
		Object managed = event.getResult();
		if (merged == null || managed == null || merged == managed) {
			// Nothing was copied: a managed aggregate keeps its events until it is flushed.
			return;
		}
		DomainEventMethods methods = DomainEventMethods.of(merged.getClass());
		if (methods == null) {
			return;
		}
		List<Object> events = pendingEvents(merged, methods);
		if (events.isEmpty()) {
			return;
		}
		EventSource session = event.getSession();
		EntityPersister persister = session.getEntityPersister(event.getEntityName(), managed);
		String type = merged.getClass().getSimpleName();
		// The copy of a new aggregate may get its id only when the flush inserts it.
		defer(merged, methods, events, () -> new AggregateRef(type, persister.getIdentifier(managed, session)),
				session);
	}

	/**
	 * The events of an aggregate that are still to be published: none while a repository call is
	 * publishing them (Spring Data does once the call returns), and of an aggregate that never clears
	 * its events, those not published earlier in the transaction.
	 */
	private static List<Object> pendingEvents(Object aggregate, DomainEventMethods methods) {
		List<Object> events = methods.events(aggregate);
		if (events.isEmpty()) {
			return events;
		}
		for (Object event : events) {
			if (AggregateContext.isPublishing(event)) {
				return List.of();
			}
		}
		if (methods.clearsEvents()) {
			return events;
		}
		List<Object> unpublished = new ArrayList<>(events.size());
		for (Object event : events) {
			if (PublishedDomainEvents.record(event)) {
				unpublished.add(event);
			}
		}
		return unpublished;
	}

	private void defer(Object aggregate, DomainEventMethods methods, List<Object> events,
			Supplier<AggregateRef> origin, EventSource session) {
		OutboxCapture capture = this.capture.get();
		for (Object event : events) {
			capture.deferUntilCommit(event, origin);
		}
		methods.clear(aggregate);
		if (session.isTransactionInProgress() && capture.needsCompletionWriter(session)) {
			session.accessTransaction().registerSynchronization(new CompletionWriter(capture));
		}
	}

	/**
	 * Writes what the session's flush at commit deferred, after that flush and before the commit. A
	 * synchronization rather than a before-completion callback of the session's action queue: Hibernate
	 * runs those only at a commit, so after a rollback the session would close with it still queued and
	 * log HHH90010101 at WARN.
	 */
	private static final class CompletionWriter implements Synchronization {

		private final OutboxCapture capture;

		CompletionWriter(OutboxCapture capture) {
			this.capture = capture;
		}

		@Override
		public void beforeCompletion() {
			this.capture.writeCaptured();
		}

		@Override
		public void afterCompletion(int status) {
		}

	}

}
