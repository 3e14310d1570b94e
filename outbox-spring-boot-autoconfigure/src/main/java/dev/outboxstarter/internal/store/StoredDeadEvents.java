package dev.outboxstarter.internal.store;

import java.util.UUID;

import dev.outboxstarter.DeadEvents;
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
