package dev.outboxstarter.spi;

import java.time.Instant;

/**
 * Told the outcome of every publish attempt, after it is recorded in the table. Implementations must
 * be fast and must not throw.
 *
 * @since 0.1.0
 */
public interface OutboxDeliveryListener {

	/**
	 * An event was acknowledged and marked published.
	 * @param path the path that published it
	 * @param transport the name of the transport that sent it
	 * @param message the event as sent
	 * @param acknowledgedAt when the broker (or handler) acknowledged it
	 */
	default void published(PublishPath path, String transport, OutboxMessage message, Instant acknowledgedAt) {
	}

	/**
	 * An attempt failed and was recorded.
	 * @param path the path that tried
	 * @param transport the name of the transport that tried
	 * @param message the event as it was to be sent
	 * @param error what went wrong
	 * @param dead whether the event has used up its attempts
	 */
	default void failed(PublishPath path, String transport, OutboxMessage message, String error, boolean dead) {
	}

	/**
	 * An event was not sent because its destination is paused (it failed as unavailable while its
	 * transport took messages to other destinations), and waits until the pause is over, or because its
	 * transport had no room for it (see {@link OutboxTransport}), and waits a first retry backoff. That
	 * is not an attempt: the event's attempts are unchanged, and {@link #failed} is not called for it.
	 * @param path the path that claimed it
	 * @param transport the name of the event's transport
	 * @param message the event as it is to be sent
	 */
	default void postponed(PublishPath path, String transport, OutboxMessage message) {
	}

	/**
	 * A batch that claimed rows was published and its outcome recorded, after the calls for its events.
	 * @param path the path that published it
	 * @param result what the batch did
	 */
	default void delivered(PublishPath path, DeliveryResult result) {
	}

}
