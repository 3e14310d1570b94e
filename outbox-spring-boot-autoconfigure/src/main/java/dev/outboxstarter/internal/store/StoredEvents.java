package dev.outboxstarter.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The outbox table's rows as operations and housekeeping see them: the backlog, counts and pages of
 * rows, putting DEAD rows back, discarding a row, and deleting rows past their retention. Capture and
 * delivery write through the {@link OutboxStore}.
 */
public class StoredEvents {

	private final NamedParameterJdbcTemplate jdbc;

	private final DatabaseVendor vendor;

	private final OutboxStatements sql;

	/**
	 * Creates the stored events of a table.
	 * @param dataSource the application's data source
	 * @param vendor its database
	 * @param statements the SQL for that database and table
	 */
	public StoredEvents(DataSource dataSource, DatabaseVendor vendor, OutboxStatements statements) {
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.vendor = vendor;
		this.sql = statements;
	}

	/**
	 * Reads the backlog: due pending, delayed and DEAD rows, and the oldest due pending row, in one statement.
	 * @return the reading
	 */
	public BacklogReading readBacklog() {
		return this.jdbc.queryForObject(this.sql.backlog(), Map.of(),
				(rs, row) -> new BacklogReading(rs.getLong("pending"), this.vendor.readNullableInstant(rs, "oldest_pending"),
						rs.getLong("dead"), this.vendor.readInstant(rs, "database_now"), rs.getLong("scheduled")));
	}

	/**
	 * Counts the rows by status and transport.
	 * @return the counts, for the combinations that have rows
	 */
	public List<EventCount> countByStatus() {
		return this.jdbc.query(this.sql.countByStatus(), (rs, row) -> new EventCount(
				EventStatus.valueOf(rs.getString("status")), rs.getString("transport"), rs.getLong("events")));
	}

	/**
	 * Lists a page of the rows of one status, oldest first.
	 * @param status the status
	 * @param offset rows to skip
	 * @param limit most rows to return
	 * @param withValues whether to read each row's values that may hold personal data: payload,
	 * headers, message key, aggregate id and last error
	 * @return the rows in seq order
	 */
	public List<StoredEvent> list(EventStatus status, int offset, int limit, boolean withValues) {
		MapSqlParameterSource parameters = new MapSqlParameterSource("status", status.name()).addValue("offset", offset)
			.addValue("limit", limit)
			.addValue("withValues", withValues ? 1 : 0);
		return this.jdbc.query(this.sql.listByStatus(), parameters, this::storedEvent);
	}

	/**
	 * Puts a DEAD row back to pending, due at once, with a fresh set of attempts.
	 * @param id the row id
	 * @return whether a DEAD row with that id was found
	 */
	public boolean retryDead(UUID id) {
		return this.jdbc.update(this.sql.retryDead(), new MapSqlParameterSource("id", this.vendor.idParameter(id))) > 0;
	}

	/**
	 * Puts DEAD rows back to pending, due at once, with a fresh set of attempts.
	 * @param eventType only rows of this event type, or {@code null} for all
	 * @return how many rows were put back
	 */
	public int retryAllDead(@Nullable String eventType) {
		return (eventType != null)
				? this.jdbc.update(this.sql.retryAllDeadOfType(), new MapSqlParameterSource("eventType", eventType))
				: this.jdbc.update(this.sql.retryAllDead(), new MapSqlParameterSource());
	}

	/**
	 * Deletes one pending or DEAD row: it is never published.
	 * @param id the row id
	 * @return whether a pending or DEAD row with that id was deleted
	 */
	public boolean discard(UUID id) {
		return this.jdbc.update(this.sql.discard(), new MapSqlParameterSource("id", this.vendor.idParameter(id))) > 0;
	}

	/**
	 * Deletes up to {@code limit} rows published longer ago than {@code retention}, oldest first.
	 * @param retention how long published rows are kept
	 * @param limit the batch size
	 * @return how many rows were deleted
	 */
	public int deletePublished(Duration retention, int limit) {
		return this.jdbc.update(this.sql.deletePublished(), retentionAndLimit(retention, limit));
	}

	/**
	 * Deletes up to {@code limit} rows that became {@code DEAD} longer ago than {@code retention}; a retried
	 * row that failed again counts from its latest failure.
	 * @param retention how long dead rows are kept after they became {@code DEAD}
	 * @param limit the batch size
	 * @return how many rows were deleted
	 */
	public int deleteDead(Duration retention, int limit) {
		return this.jdbc.update(this.sql.deleteDead(), retentionAndLimit(retention, limit));
	}

	private static MapSqlParameterSource retentionAndLimit(Duration retention, int limit) {
		return new MapSqlParameterSource("retentionMillis", retention.toMillis()).addValue("limit", limit);
	}

	private StoredEvent storedEvent(ResultSet rs, int row) throws SQLException {
		return storedEvent(this.vendor, rs);
	}

	/**
	 * Reads a row of the {@code details} columns.
	 */
	static StoredEvent storedEvent(DatabaseVendor vendor, ResultSet rs) throws SQLException {
		return new StoredEvent(UUID.fromString(rs.getString("id")), rs.getLong("seq"), rs.getString("event_type"),
				rs.getString("transport"), rs.getString("destination"), rs.getString("message_key"),
				rs.getString("aggregate_type"), rs.getString("aggregate_id"), EventStatus.valueOf(rs.getString("status")),
				rs.getInt("attempts"), rs.getString("last_error"), vendor.readInstant(rs, "created_at"),
				vendor.readInstant(rs, "available_at"), vendor.readNullableInstant(rs, "published_at"),
				rs.getString("payload"), rs.getString("headers"), vendor.readNullableInstant(rs, "deliver_at"),
				rs.getString("content_type"));
	}

}
