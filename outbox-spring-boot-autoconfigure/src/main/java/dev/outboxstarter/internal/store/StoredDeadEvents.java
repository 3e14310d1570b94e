package dev.outboxstarter.internal.store;

import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import org.jspecify.annotations.Nullable;

/**
 * {@link DeadEvents} of the outbox table.
 */
public class StoredDeadEvents implements DeadEvents {

	private final StoredEvents events;

	public StoredDeadEvents(StoredEvents events) {
		this.events = events;
	}

	@Override
	public boolean retry(UUID id) {
		return this.events.retryDead(id);
	}

	@Override
	public int retryAll(@Nullable String eventType) {
		return this.events.retryAllDead(eventType);
	}

}
