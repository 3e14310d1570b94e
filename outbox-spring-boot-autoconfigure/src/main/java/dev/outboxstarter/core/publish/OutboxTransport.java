package dev.outboxstarter.core.publish;

import java.util.concurrent.CompletableFuture;

/**
 * Sends outbox messages to a broker or handler. Declare an implementation as a bean to add a
 * transport; events routed to its {@link #name()} are published through it.
 * <p>
 * The outbox sends a whole batch before it waits: {@link #send} must not wait for the
 * acknowledgement, only start the send and return a future that completes when the message is
 * safely accepted (or exceptionally when it is not). The outbox bounds the wait with
 * {@code outbox.publish-timeout}.
 */
public interface OutboxTransport {

	/**
	 * The name events are routed to, e.g. {@code kafka}.
	 * @return the transport name
	 */
	String name();

	/**
	 * Starts sending a message.
	 * @param message the message
	 * @return completes when the message is acknowledged
	 */
	CompletableFuture<?> send(OutboxMessage message);

	/**
	 * Whether messages with the same key sent one after the other without waiting are acknowledged in
	 * that order and, when one fails, the ones after it fail too (Kafka: one partition per key and an
	 * idempotent producer). When not, the outbox sends a key's next message only once the previous one
	 * is acknowledged, so that a failed message is never overtaken by a later one of its key.
	 * @return whether the transport keeps the order of a key's messages by itself
	 */
	default boolean keepsKeyOrder() {
		return false;
	}

}
