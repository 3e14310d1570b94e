package dev.outboxstarter.core.retry;

import java.util.UUID;

import dev.outboxstarter.core.DeadEvents;
import dev.outboxstarter.core.store.OutboxStore;
import org.jspecify.annotations.Nullable;

/**
 * {@link DeadEvents} of the outbox table.
 */
public class StoredDeadEvents implements DeadEvents {

	private final OutboxStore store;

	public StoredDeadEvents(OutboxStore store) {
		this.store = store;
	}

	@Override
	public boolean retry(UUID id) {
		return this.store.retryDead(id);
	}

	@Override
	public int retryAll(@Nullable String eventType) {
		return this.store.retryAllDead(eventType);
	}

}
