package dev.outboxstarter.core.publish;

import dev.outboxstarter.core.store.ClaimedEvent;

/**
 * Told the outcome of every publish attempt, after it is recorded in the table. Implementations must
 * be fast and must not throw.
 */
public interface OutboxDeliveryListener {

	/**
	 * An event was acknowledged and marked published.
	 * @param path the path that published it
	 * @param event the event
	 */
	default void published(PublishPath path, ClaimedEvent event) {
	}

	/**
	 * An attempt failed and was recorded.
	 * @param path the path that tried
	 * @param event the event
	 * @param error what went wrong
	 * @param dead whether the event has used up its attempts
	 */
	default void failed(PublishPath path, ClaimedEvent event, String error, boolean dead) {
	}

}
