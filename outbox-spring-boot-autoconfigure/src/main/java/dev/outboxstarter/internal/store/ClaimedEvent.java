package dev.outboxstarter.internal.store;

import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
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

		/**
		 * The ordering key of a captured event, as {@link ClaimedEvent#orderingKey()} reads it from the row.
		 * @param event the event
		 * @return the key, or {@code null} when the event has no message key and so no order
		 */
		public static @Nullable OrderingKey of(CapturedEvent event) {
			return (event.messageKey() != null)
					? new OrderingKey(event.transport(), event.destination(), event.messageKey()) : null;
		}

	}

}
