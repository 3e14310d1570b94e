package dev.outboxstarter;

import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * The events that used up their attempts ({@code DEAD}): kept in the table, never retried on their
 * own. Once the cause is fixed, put them back to pending: they are published again with a fresh set of
 * attempts, in their key's order.
 *
 * @since 0.1.0
 */
public interface DeadEvents {

	/**
	 * Puts one DEAD event back to pending.
	 * @param id the event's id (its message id)
	 * @return whether a DEAD event with that id was found
	 */
	boolean retry(UUID id);

	/**
	 * Puts DEAD events back to pending.
	 * @param eventType only events of this logical type, or {@code null} for all
	 * @return how many were put back
	 */
	int retryAll(@Nullable String eventType);

}
