package dev.outboxstarter.internal.capture.jpa;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The events, by identity, already published in the current transaction of aggregates that never
 * clear them (no {@code @AfterDomainEventPublication}): such an aggregate still holds them at every
 * later flush, which must not publish them again. Aggregates that clear their events need no record.
 */
final class PublishedDomainEvents implements TransactionSynchronization {

	private final Set<Object> events = Collections.newSetFromMap(new IdentityHashMap<>());

	private PublishedDomainEvents() {
	}

	/**
	 * Records that an event is published in the current transaction.
	 * @param event the event
	 * @return whether it was not recorded yet; always {@code true} with no transaction, which has
	 * nothing to record it in
	 */
	public static boolean record(Object event) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			return true;
		}
		PublishedDomainEvents published = (PublishedDomainEvents) TransactionSynchronizationManager
			.getResource(PublishedDomainEvents.class);
		if (published == null) {
			published = new PublishedDomainEvents();
			TransactionSynchronizationManager.bindResource(PublishedDomainEvents.class, published);
			TransactionSynchronizationManager.registerSynchronization(published);
		}
		return published.events.add(event);
	}

	@Override
	public void suspend() {
		TransactionSynchronizationManager.unbindResource(PublishedDomainEvents.class);
	}

	@Override
	public void resume() {
		TransactionSynchronizationManager.bindResource(PublishedDomainEvents.class, this);
	}

	@Override
	public void afterCompletion(int status) {
		TransactionSynchronizationManager.unbindResourceIfPossible(PublishedDomainEvents.class);
	}

}
