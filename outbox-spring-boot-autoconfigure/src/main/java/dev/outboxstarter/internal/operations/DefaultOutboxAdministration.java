package dev.outboxstarter.internal.operations;

import java.util.UUID;

import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.operations.OutboxAdministration;

/**
 * {@link OutboxAdministration} of the outbox table.
 */
public final class DefaultOutboxAdministration implements OutboxAdministration {

	private final OutboxStore store;

	public DefaultOutboxAdministration(OutboxStore store) {
		this.store = store;
	}

	@Override
	public boolean discard(UUID id) {
		return this.store.discard(id);
	}

}
