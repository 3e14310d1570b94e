package dev.outboxstarter.operations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * What is pending or DEAD in the outbox, and why: the backlog, the rows by status, what this instance
 * found unavailable, and its relay and fast path. It reads and changes nothing; what an operator may
 * do is {@link OutboxAdministration}'s, and what a test needs {@link OutboxTesting}'s. The actuator
 * endpoint and health indicator, the metrics and the test kit read the engine through it.
 *
 * @since 0.1.0
 */
public interface OutboxMonitoring {

	/**
	 * The name of the outbox this view reads: the bean name of its data source.
	 * @return the name
	 */
	String name();

	/**
	 * The outboxes of the application's other data sources, each read by a view of its own; the
	 * primary data source's outbox is this one.
	 * @return the views by outbox name, empty when the application has one outbox
	 */
	Map<String, OutboxMonitoring> otherOutboxes();

	/**
	 * The tenants' outboxes, when the application has an {@code OutboxTenants} bean.
	 * @return how their relay fares, or {@code null} without tenants
	 */
	@Nullable TenantsReading tenants();

	/**
	 * Reads the backlog of one tenant's outbox, from its table.
	 * @param tenant the tenant's id
	 * @return the reading
	 * @throws IllegalArgumentException if the application has no such tenant
	 */
	BacklogReading readTenantBacklog(String tenant);

	/**
	 * Who publishes the captured events.
	 * @return {@code polling} (the fast path and the polling relay) or {@code log} (Debezium)
	 */
	String relayMode();

	/**
	 * The transports this instance publishes to.
	 * @return their names
	 */
	Set<String> transports();

	/**
	 * The backlog as the backlog monitor read it last, without a query.
	 * @return the latest reading, or {@code null} when no monitor runs: with the log relay no row stays
	 * in the table, and without metrics or a health indicator nobody reads it
	 */
	@Nullable BacklogSnapshot latestBacklog();

	/**
	 * Reads the backlog from the table now.
	 * @return the reading
	 */
	BacklogReading readBacklog();

	/**
	 * Counts the rows by status and transport.
	 * @return the counts
	 */
	List<EventCount> countByStatus();

	/**
	 * Lists a page of the rows of one status, in seq order.
	 * @param status the status
	 * @param offset rows to pass over
	 * @param limit most rows to return
	 * @param withValues whether to read the values that may hold personal data: payloads, headers,
	 * message keys, aggregate ids and last errors
	 * @return the rows
	 */
	List<StoredEvent> list(EventStatus status, int offset, int limit, boolean withValues);

	/**
	 * Finds a page of the rows a query matches, newest first.
	 * @param query which rows
	 * @param offset rows to pass over
	 * @param limit most rows to return
	 * @param withValues whether to read the values that may hold personal data: payloads, headers,
	 * message keys, aggregate ids and last errors
	 * @return the rows, in descending seq order
	 */
	List<StoredEvent> find(EventQuery query, int offset, int limit, boolean withValues);

	/**
	 * Finds one row.
	 * @param id the row id
	 * @param withValues whether to read the values that may hold personal data
	 * @return the row, or {@code null} when there is none with that id (it was discarded, or deleted after
	 * its retention)
	 */
	@Nullable StoredEvent find(UUID id, boolean withValues);

	/**
	 * Counts the DEAD rows by event type and destination.
	 * @return the counts, largest first
	 */
	List<DeadEventCount> countDead();

	/**
	 * The transports this instance found unavailable and has not seen take a message since.
	 * @return their names, sorted
	 */
	Set<String> unavailableTransports();

	/**
	 * The destinations this instance pauses while their transport takes messages to others.
	 * @return the pauses
	 */
	List<PausedDestination> pausedDestinations();

	/**
	 * Whether this instance runs the polling relay.
	 * @return {@code true} if it does
	 */
	boolean relayRuns();

	/**
	 * When the polling relay last ran.
	 * @return the time, or {@code null} before its first run or when it does not run
	 */
	@Nullable Instant lastRelayRun();

	/**
	 * Whether this instance runs the fast path.
	 * @return {@code true} if it does
	 */
	boolean fastPathRuns();

	/**
	 * Committed events waiting in the fast path's queues.
	 * @return the number, 0 when the fast path does not run
	 */
	int fastPathQueueSize();

	/**
	 * Committed events the fast path's full queues left to the relay since start-up.
	 * @return the number, 0 when the fast path does not run
	 */
	long fastPathOverflowCount();

}
