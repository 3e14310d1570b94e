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

}
