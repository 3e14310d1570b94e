package dev.outboxstarter.core.publish;

import java.time.Instant;

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
	 * @param acknowledgedAt when the broker (or handler) acknowledged it
	 */
	default void published(PublishPath path, ClaimedEvent event, Instant acknowledgedAt) {
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

	/**
	 * An event was not sent because its destination is paused (it failed as unavailable while its
	 * transport took messages to other destinations), and waits until the pause is over. That is not an
	 * attempt: the event's attempts are unchanged, and {@link #failed} is not called for it.
	 * @param path the path that claimed it
	 * @param event the event
	 */
	default void postponed(PublishPath path, ClaimedEvent event) {
	}

	/**
	 * A batch that claimed rows was published and its outcome recorded, after the calls for its events.
	 * @param path the path that published it
	 * @param result what the batch did
	 */
	default void delivered(PublishPath path, DeliveryResult result) {
	}

}
