package dev.outboxstarter.internal.store;

import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import dev.outboxstarter.DeadEvents;
import org.jspecify.annotations.Nullable;

/**
 * {@link DeadEvents} of the outbox tables: the primary data source's, then those of the others.
 */
public class StoredDeadEvents implements DeadEvents {

	private final Supplier<List<StoredEvents>> tables;

	/**
	 * Creates the DEAD events of the outbox tables.
	 * @param tables the rows of every outbox table
	 */
	public StoredDeadEvents(Supplier<List<StoredEvents>> tables) {
		this.tables = tables;
	}

	@Override
	public boolean retry(UUID id) {
		for (StoredEvents table : this.tables.get()) {
			if (table.retryDead(id)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public int retryAll(@Nullable String eventType) {
		int retried = 0;
		for (StoredEvents table : this.tables.get()) {
			retried += table.retryAllDead(eventType);
		}
		return retried;
	}

}
