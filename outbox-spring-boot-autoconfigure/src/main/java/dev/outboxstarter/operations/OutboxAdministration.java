package dev.outboxstarter.operations;

import java.util.List;
import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import org.jspecify.annotations.Nullable;

/**
 * What an operator may do to the outbox's events beyond putting DEAD ones back to pending one by one or
 * by type, which {@link DeadEvents} does for the application's code as well: discard an event that must
 * never be published, retry the DEAD events a query matches, and publish retained events again. The
 * {@code outbox} endpoint and the console act through these; {@link OutboxMonitoring} finds the events.
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

	/**
	 * Puts the DEAD rows a query matches back to pending, due at once, with a fresh set of attempts, as
	 * {@link DeadEvents#retry(UUID)} does for one.
	 * @param query which rows; its status is ignored, only DEAD rows are retried
	 * @return how many rows were put back
	 */
	int retryDead(EventQuery query);

	/**
	 * Publishes retained PUBLISHED events again: each one the query matches is copied into a new pending
	 * row, with a new id and the original's id in the {@code outbox-republished-from} header, due at once,
	 * and the relay publishes the copies as any row, in the originals' order per key, after the key's
	 * earlier pending rows. The originals stay as they are.
	 * @param query which rows; its status is ignored, only PUBLISHED rows are copied
	 * @param destination where the copies go, on the originals' transport, or {@code null} for the
	 * originals' destinations
	 * @param limit most rows to copy, the oldest first
	 * @return the ids of the copies, in the originals' order
	 * @throws IllegalArgumentException when the limit is not positive, the destination is blank, or the
	 * transport of a row found refuses the destination (a RabbitMQ destination must be
	 * {@code <exchange>/<routing key>}); nothing is copied then
	 */
	List<UUID> republish(EventQuery query, @Nullable String destination, int limit);

}
