package dev.outboxstarter.core.store;

import dev.outboxstarter.core.publish.OutboxMessage;
import org.jspecify.annotations.Nullable;

/**
 * A pending row locked for publishing.
 *
 * @param message what the transport sends
 * @param seq insertion order, the order within a key
 * @param transport the transport name
 * @param attempts failed attempts so far
 */
public record ClaimedEvent(OutboxMessage message, long seq, String transport, int attempts) {

	/**
	 * The ordering key: transport, destination and message key.
	 * @return the key, or {@code null} when the message has no key and so no order
	 */
	public @Nullable OrderingKey orderingKey() {
		return (this.message.key() != null)
				? new OrderingKey(this.transport, this.message.destination(), this.message.key()) : null;
	}

	/**
	 * The events of one ordering key reach the broker in seq order.
	 *
	 * @param transport the transport name
	 * @param destination the destination
	 * @param key the message key
	 */
	public record OrderingKey(String transport, String destination, String key) {
	}

}
