package dev.outboxstarter.spi;

import java.util.concurrent.CompletableFuture;

/**
 * Sends outbox messages to a broker or handler. Declare an implementation as a bean to add a
 * transport; events routed to its {@link #name()} are published through it.
 * <p>
 * The outbox sends a whole batch before it waits: {@link #send} must not wait for the
 * acknowledgement, only start the send and return a future that completes when the message is
 * safely accepted (or exceptionally when it is not). The outbox bounds the wait with
 * {@code outbox.publish-timeout}; a message not acknowledged by then is still in flight, and the
 * instance does not send it again until its future completes, so the future must complete, in the end,
 * whatever happens. A transport that cannot take a message now (a full queue) throws
 * {@link java.util.concurrent.RejectedExecutionException} from {@code send}: the message stays pending
 * without counting an attempt.
 *
 * @since 0.1.0
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

	/**
	 * Whether this transport sends payloads in formats other than JSON ({@link OutboxPayloadSerializer}):
	 * it sends {@link OutboxMessage#payloadBytes()} and carries {@link OutboxMessage#contentType()}. An
	 * event whose route would give such a transport a binary payload is refused when it is raised. None
	 * by default: a transport written for JSON would send the Base64 text.
	 * @return whether the transport sends binary payloads as they are
	 */
	default boolean sendsBinaryPayloads() {
		return false;
	}

	/**
	 * Whether a failure means that the broker cannot take messages right now (unreachable, no leader,
	 * too few replicas in sync) rather than that this message cannot be published. An outage is not the
	 * message's fault: a failure of this kind is recorded and retried like any other, but it never makes
	 * the event DEAD however long the outage lasts, and the first acknowledgement afterwards makes the
	 * transport's backed-off events due at once. Only other failures count towards
	 * {@code outbox.retry.max-attempts}. A message not acknowledged within
	 * {@code outbox.publish-timeout} is neither: it is still in flight, and the failure its future
	 * completes with later is recorded then, judged by this method.
	 * <p>
	 * A message whose acknowledgement was lost with the connection (the connection or channel closed
	 * while it was pending, so the broker may or may not have it) belongs here too, however the client
	 * library reports it (RabbitMQ's client nacks every pending confirm): counted as the message's own
	 * failure, one connection lost while a backlog drains after an outage could make the events in
	 * flight {@code DEAD} and let the later events of their keys overtake them.
	 * @param failure what {@link #send} threw or its future completed with
	 * @return whether the broker is unavailable; {@code false} by default, so that every failure counts
	 */
	default boolean isUnavailable(Throwable failure) {
		return false;
	}

	/**
	 * Whether a failure says that this message can never be published as it is, whatever the broker's
	 * state (too large for the broker, a destination name the broker refuses), so that no retry can
	 * succeed before someone changes the broker's settings or the message. Such an event is
	 * {@code DEAD} at once rather than after {@code outbox.retry.max-attempts}: its retries could only
	 * fail, and each would hold back the later events of its key for the whole retry schedule. Like
	 * every {@code DEAD} event it is kept, counted and can be retried once the cause is fixed. A failure
	 * that {@link #isUnavailable} says is an outage is never permanent.
	 * @param failure what {@link #send} threw or its future completed with
	 * @return whether retrying cannot succeed; {@code false} by default, so that every failure is retried
	 * up to {@code outbox.retry.max-attempts} times
	 */
	default boolean isPermanent(Throwable failure) {
		return false;
	}

	/**
	 * Checks a destination that an operator gives rather than a route, such as the target of a
	 * republish, before any event is written for it: one this transport could never send to would make
	 * every event for it {@code DEAD}.
	 * @param destination the destination
	 * @throws IllegalArgumentException naming what is wrong with it and how to write it; by default
	 * every destination is taken
	 */
	default void checkDestination(String destination) {
	}

}
