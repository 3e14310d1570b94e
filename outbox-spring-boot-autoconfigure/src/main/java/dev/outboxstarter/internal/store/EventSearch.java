package dev.outboxstarter.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.jdbc.TableName;
import dev.outboxstarter.operations.DeadEventCount;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The outbox table's rows as an operator looks for them, by any of the criteria of an
 * {@link EventQuery}, and what an operator does to the rows found: retry the DEAD ones, read the
 * PUBLISHED ones to copy them. Each criterion given adds its clause from the vendor's statements
 * ({@code search-filter-*}) to the statement that reads or changes the rows.
 */
public class EventSearch {

	private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
	};

	private final NamedParameterJdbcTemplate jdbc;

	private final DatabaseVendor vendor;

	private final JsonMapper json;

	private final String search;

	private final String searchById;

	private final String countDead;

	private final String retryDead;

	private final String republishSource;

	private final Map<Criterion, String> filters = new LinkedHashMap<>();

	/**
	 * Creates the search of a table.
	 * @param dataSource the application's data source
	 * @param vendor its database
	 * @param table the outbox table name, a plain SQL identifier
	 * @param json reads the headers column
	 */
	public EventSearch(DataSource dataSource, DatabaseVendor vendor, String table, JsonMapper json) {
		TableName.checkQualified(table);
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.vendor = vendor;
		this.json = json;
		Properties sql = vendor.statements();
		this.search = statement(sql, "search", table);
		this.searchById = statement(sql, "search-by-id", table);
		this.countDead = statement(sql, "count-dead-by-destination", table);
		this.retryDead = statement(sql, "retry-dead-matching", table);
		this.republishSource = statement(sql, "republish-source", table);
		for (Criterion criterion : Criterion.values()) {
			this.filters.put(criterion, statement(sql, "search-filter-" + criterion.statement, table));
		}
	}

	/**
	 * Finds a page of the rows a query matches, newest first.
	 * @param query which rows
	 * @param offset rows to pass over
	 * @param limit most rows to return
	 * @param withValues whether to read the values that may hold personal data
	 * @return the rows, in descending seq order
	 */
	public List<StoredEvent> find(EventQuery query, int offset, int limit, boolean withValues) {
		MapSqlParameterSource parameters = new MapSqlParameterSource("offset", offset).addValue("limit", limit)
			.addValue("withValues", withValues ? 1 : 0);
		return this.jdbc.query(filtered(this.search, query, true, parameters), parameters,
				(rs, row) -> StoredEvents.storedEvent(this.vendor, rs));
	}

	/**
	 * Finds one row.
	 * @param id the row id
	 * @param withValues whether to read the values that may hold personal data
	 * @return the row, or {@code null} when there is none
	 */
	public @Nullable StoredEvent find(UUID id, boolean withValues) {
		MapSqlParameterSource parameters = new MapSqlParameterSource("id", this.vendor.idParameter(id))
			.addValue("withValues", withValues ? 1 : 0);
		List<StoredEvent> found = this.jdbc.query(this.searchById, parameters,
				(rs, row) -> StoredEvents.storedEvent(this.vendor, rs));
		return found.isEmpty() ? null : found.get(0);
	}

	/**
	 * Counts the DEAD rows by event type and destination.
	 * @return the counts, largest first
	 */
	public List<DeadEventCount> countDead() {
		return this.jdbc.query(this.countDead, (rs, row) -> new DeadEventCount(rs.getString("event_type"),
				rs.getString("transport"), rs.getString("destination"), rs.getLong("events")));
	}

	/**
	 * Puts the DEAD rows a query matches back to pending, due at once, with a fresh set of attempts.
	 * @param query which rows; its status is not looked at
	 * @return how many rows were put back
	 */
	public int retryDead(EventQuery query) {
		MapSqlParameterSource parameters = new MapSqlParameterSource();
		return this.jdbc.update(filtered(this.retryDead, query, false, parameters), parameters);
	}

	/**
	 * Reads the PUBLISHED rows a query matches as the events that copies of them would be, oldest first.
	 * @param query which rows; its status is not looked at
	 * @param limit most rows to read
	 * @param copy makes the copy of one row's event, given the row's event as it was captured
	 * @return the copies, in the rows' seq order
	 */
	public List<CapturedEvent> copyPublished(EventQuery query, int limit, Function<CapturedEvent, CapturedEvent> copy) {
		MapSqlParameterSource parameters = new MapSqlParameterSource("limit", limit);
		return this.jdbc.query(filtered(this.republishSource, query, false, parameters), parameters,
				(rs, row) -> copy.apply(capturedEvent(rs)));
	}

	private CapturedEvent capturedEvent(ResultSet rs) throws SQLException {
		String headers = rs.getString("headers");
		return new CapturedEvent(UUID.fromString(rs.getString("id")), rs.getString("aggregate_type"),
				rs.getString("aggregate_id"), rs.getString("event_type"), rs.getString("transport"),
				rs.getString("destination"), rs.getString("message_key"), rs.getString("payload"),
				(headers != null) ? this.json.readValue(headers, HEADERS) : Map.of(), null, false,
				rs.getString("content_type"));
	}

	private String filtered(String statement, EventQuery query, boolean byStatus, MapSqlParameterSource parameters) {
		List<String> clauses = new ArrayList<>();
		for (Map.Entry<Criterion, String> filter : this.filters.entrySet()) {
			Criterion criterion = filter.getKey();
			Object value = criterion.value.apply(query);
			if (value == null || (criterion == Criterion.STATUS && !byStatus)) {
				continue;
			}
			clauses.add(filter.getValue());
			parameters.addValue(criterion.parameter, (value instanceof Instant instant)
					? this.vendor.instantParameter(instant) : value.toString());
		}
		return statement.replace("{filters}", String.join(" ", clauses));
	}

	private static String statement(Properties sql, String name, String table) {
		return OutboxStatements.expand(sql, name, table, Map.of());
	}

	/**
	 * The criteria of a query, each with its statement's name, its parameter and its value.
	 */
	private enum Criterion {

		STATUS("status", "status", EventQuery::status),

		EVENT_TYPE("event-type", "eventType", EventQuery::eventType),

		DESTINATION("destination", "destination", EventQuery::destination),

		KEY("key", "key", EventQuery::key),

		AGGREGATE_TYPE("aggregate-type", "aggregateType", EventQuery::aggregateType),

		AGGREGATE_ID("aggregate-id", "aggregateId", EventQuery::aggregateId),

		CREATED_FROM("created-from", "createdFrom", EventQuery::createdFrom),

		CREATED_BEFORE("created-before", "createdBefore", EventQuery::createdBefore);

		private final String statement;

		private final String parameter;

		private final Function<EventQuery, @Nullable Object> value;

		Criterion(String statement, String parameter, Function<EventQuery, @Nullable Object> value) {
			this.statement = statement;
			this.parameter = parameter;
			this.value = value;
		}

	}

}
