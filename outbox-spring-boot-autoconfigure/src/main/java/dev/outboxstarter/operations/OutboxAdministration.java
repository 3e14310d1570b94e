package dev.outboxstarter.operations;

import java.util.UUID;

import dev.outboxstarter.DeadEvents;

/**
 * What an operator may do to the outbox's events beyond putting DEAD ones back to pending, which
 * {@link DeadEvents} does for the application's code as well: discard an event that must never be
 * published. The {@code outbox} endpoint acts through both; {@link OutboxMonitoring} finds the events.
 *
 * @since 0.1.0
 */
public interface OutboxAdministration {

	/**
	 * Deletes one pending or DEAD row: its event is never published.
	 * @param id the row id
	 * @return whether such a row existed
	 */
	boolean discard(UUID id);

}
