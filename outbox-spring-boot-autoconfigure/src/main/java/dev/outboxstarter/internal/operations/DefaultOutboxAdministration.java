package dev.outboxstarter.internal.operations;

import java.util.UUID;

import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.OutboxAdministration;

/**
 * {@link OutboxAdministration} of the outbox table.
 */
public final class DefaultOutboxAdministration implements OutboxAdministration {

	private final StoredEvents storedEvents;

	public DefaultOutboxAdministration(StoredEvents storedEvents) {
		this.storedEvents = storedEvents;
	}

	@Override
	public boolean discard(UUID id) {
		return this.storedEvents.discard(id);
	}

}
