package dev.outboxstarter.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;

/**
 * JDBC access to the outbox table. Claims and marks run in the caller's transaction, so row locks
 * last exactly as long as the caller publishes, and, where the database can end an idle transaction,
 * no longer than the claim idle limit when the caller stops without dying.
 */
public class OutboxStore {

	private static final int MAX_ERROR_LENGTH = 2000;

	/**
	 * Where a claim first picks due rows with a plain read and then locks some of them (MariaDB and
	 * MySQL, see their {@code claim-due}), it picks this many per row to claim, so that it still fills
	 * its batch while other instances hold some of the rows it picked.
	 */
	private static final int CLAIM_CANDIDATES_PER_ROW = 4;

	private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
	};

	private static final SqlParameterValue NULL_TEXT = new SqlParameterValue(Types.VARCHAR, null);

	/**
	 * How much longer than the publish timeout a claim's connection may stay idle, at least.
	 */
	private static final Duration MIN_CLAIM_IDLE_MARGIN = Duration.ofSeconds(10);

	/** MySQL's and MariaDB's largest {@code wait_timeout}. */
	private static final long MAX_CLAIM_IDLE_SECONDS = 31_536_000;

	private static final Log logger = LogFactory.getLog(OutboxStore.class);

	private final NamedParameterJdbcTemplate jdbc;

	private final DatabaseVendor vendor;

	private final OutboxStatements sql;

	/** The insert runs in every business transaction: its named parameters are resolved once, here. */
	private final PositionalStatement insert;

	/** The insert's parameters in placeholder order. */
	private final InsertParameter[] insertParameters;

	private final JsonMapper json;

	private final boolean logOnly;

	/** The claim idle limit's parameters, or {@code null} for none. */
	private final @Nullable MapSqlParameterSource claimIdleLimit;

	public OutboxStore(DataSource dataSource, DatabaseVendor vendor, OutboxStatements statements, JsonMapper json) {
		this(dataSource, vendor, statements, json, false);
	}

	/**
	 * Creates a store whose claims have no idle limit.
	 * @param dataSource the application's data source
	 * @param vendor its database
	 * @param statements the SQL for that database and table
	 * @param json writes the headers column
	 * @param logOnly whether inserted rows are deleted again in the same transaction, for the log relay
	 * @throws IllegalStateException when {@code logOnly} is asked of a database without a log relay
	 */
	public OutboxStore(DataSource dataSource, DatabaseVendor vendor, OutboxStatements statements, JsonMapper json,
			boolean logOnly) {
		this(dataSource, vendor, statements, json, logOnly, null);
	}

	/**
	 * Creates a store.
	 * @param dataSource the application's data source
	 * @param vendor its database
	 * @param statements the SQL for that database and table
	 * @param json writes the headers column
	 * @param logOnly whether inserted rows are deleted again in the same transaction, for the log relay:
	 * the database log carries them to Debezium and the table stays empty
	 * @param claimIdleLimit how long a claim's connection may stay idle before the database ends its
	 * transaction (see {@link #claimIdleLimit(Duration)}), or {@code null} for no limit
	 * @throws IllegalStateException when {@code logOnly} is asked of a database without a log relay
	 */
	public OutboxStore(DataSource dataSource, DatabaseVendor vendor, OutboxStatements statements, JsonMapper json,
			boolean logOnly, @Nullable Duration claimIdleLimit) {
		Assert.state(!logOnly || !statements.deleteWritten().isEmpty(), () -> "outbox.relay.mode=log needs a "
				+ "database whose change log Debezium reads (PostgreSQL with wal_level=logical, MySQL or MariaDB with "
				+ "the row-based binlog), but this one is " + vendor + ": set outbox.relay.mode=polling");
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.vendor = vendor;
		this.sql = statements;
		this.insert = PositionalStatement.of(statements.insert());
		this.insertParameters = this.insert.parameterNames().stream().map(InsertParameter::named)
			.toArray(InsertParameter[]::new);
		this.json = json;
		this.logOnly = logOnly;
		this.claimIdleLimit = (claimIdleLimit != null && !statements.limitClaimIdle().isEmpty())
				? new MapSqlParameterSource("millis", Math.min(claimIdleLimit.toMillis(), Integer.MAX_VALUE))
					.addValue("seconds", Math.min(ceilSeconds(claimIdleLimit), MAX_CLAIM_IDLE_SECONDS))
				: null;
	}

	/**
	 * How long a claim's connection may stay idle before the database ends its transaction, releasing
	 * its rows: twice the publish timeout, and at least 10 s more than it. A healthy claim is idle while
	 * its batch is sent and acknowledged, which the publish timeout bounds; the margin is for a send begun
	 * just before the deadline that blocks past it, and for pauses of the JVM. Only an instance that stops
	 * without dying (a long GC pause, a frozen VM, a network partition) keeps a claim that long.
	 * @param publishTimeout {@code outbox.publish-timeout}
	 * @return the claim idle limit
	 */
	public static Duration claimIdleLimit(Duration publishTimeout) {
		Duration margin = (publishTimeout.compareTo(MIN_CLAIM_IDLE_MARGIN) > 0) ? publishTimeout : MIN_CLAIM_IDLE_MARGIN;
		return publishTimeout.plus(margin);
	}

	private static long ceilSeconds(Duration duration) {
		return duration.toSeconds() + ((duration.toNanosPart() > 0) ? 1 : 0);
	}

	/**
	 * The database this store talks to.
	 * @return the vendor
	 */
	public DatabaseVendor vendor() {
		return this.vendor;
	}

	/**
	 * Inserts captured events: one statement for a single event, one JDBC batch for several. For the log
	 * relay, deletes them again in the same transaction.
	 * @param events the events, in capture order
	 * @param availableAfter how long the relay leaves them alone: the grace period of the
	 * {@link RelayHandOff}
	 */
	public void insert(List<CapturedEvent> events, Duration availableAfter) {
		long delayMillis = availableAfter.toMillis();
		JdbcOperations jdbc = this.jdbc.getJdbcOperations();
		if (events.size() == 1) {
			jdbc.update(this.insert.sql(), insertValues(events.get(0), delayMillis));
		}
		else {
			List<Object[]> rows = new ArrayList<>(events.size());
			for (CapturedEvent event : events) {
				rows.add(insertValues(event, delayMillis));
			}
			jdbc.batchUpdate(this.insert.sql(), rows);
		}
		if (this.logOnly) {
			this.jdbc.update(this.sql.deleteWritten(), ids(events.stream().map(CapturedEvent::id).toList()));
		}
	}

	/**
	 * The insert's values in placeholder order, straight from the event. A null is bound with its SQL type,
	 * which spares JDBC the driver look-ups it makes to bind an untyped one.
	 */
	private Object[] insertValues(CapturedEvent event, long delayMillis) {
		Object[] values = new Object[this.insertParameters.length];
		for (int i = 0; i < values.length; i++) {
			values[i] = switch (this.insertParameters[i]) {
				case ID -> this.vendor.idParameter(event.id());
				case AGGREGATE_TYPE -> text(event.aggregateType());
				case AGGREGATE_ID -> text(event.aggregateId());
				case EVENT_TYPE -> event.eventType();
				case TRANSPORT -> event.transport();
				case DESTINATION -> event.destination();
				case MESSAGE_KEY -> text(event.messageKey());
				case PAYLOAD -> event.payload();
				case HEADERS -> event.headers().isEmpty() ? NULL_TEXT : this.json.writeValueAsString(event.headers());
				case DELAY_MILLIS -> delayMillis;
			};
		}
		return values;
	}

	private static Object text(@Nullable String value) {
		return (value != null) ? value : NULL_TEXT;
	}

	/**
	 * The named parameters of the {@code insert} statement.
	 */
	private enum InsertParameter {

		ID("id"), AGGREGATE_TYPE("aggregateType"), AGGREGATE_ID("aggregateId"), EVENT_TYPE("eventType"),
		TRANSPORT("transport"), DESTINATION("destination"), MESSAGE_KEY("messageKey"), PAYLOAD("payload"),
		HEADERS("headers"), DELAY_MILLIS("delayMillis");

		private final String name;

		InsertParameter(String name) {
			this.name = name;
		}

		static InsertParameter named(String name) {
			for (InsertParameter parameter : values()) {
				if (parameter.name.equals(name)) {
					return parameter;
				}
			}
			throw new IllegalStateException("The outbox insert has a parameter :" + name + " that it cannot bind");
		}

	}

	/**
	 * Locks up to {@code limit} due pending rows after a seq, in seq order, passing over rows locked by
	 * others and rows held back by an earlier row of their key that is not due yet or lies at or before
	 * that seq.
	 * @param limit the batch size
	 * @param afterSeq only rows with a greater seq are claimed (0 for all)
	 * @return the claimed rows in seq order, and those of them an earlier pending row of their key outside
	 * the claim holds back
	 */
	public ClaimedBatch claimDue(int limit, long afterSeq) {
		limitClaimIdleTime();
		MapSqlParameterSource parameters = new MapSqlParameterSource("limit", limit)
			.addValue("candidates", limit * CLAIM_CANDIDATES_PER_ROW)
			.addValue("afterSeq", afterSeq);
		if (!this.sql.beforeClaimDue().isEmpty()) {
			this.jdbc.getJdbcOperations().execute(this.sql.beforeClaimDue());
		}
		List<ClaimedEvent> claimed = this.jdbc.query(this.sql.claimDue(), parameters, this::claimedEvent);
		return new ClaimedBatch(claimed, heldBack(claimed));
	}

	/**
	 * Locks the still-pending rows of the given captured events, passing over rows locked by others, and
	 * tells which of them an earlier pending row of their key outside the claim holds back: from the
	 * claim's own flag when every event's row was claimed, otherwise (a row left out, locked by another
	 * transaction, may precede a claimed row of its key) by asking again. The rows' payloads and headers are not read
	 * again: the claimed events carry the captured ones, which the rows hold unchanged.
	 * @param events committed captured events, each once
	 * @return the claimed rows in seq order
	 */
	public ClaimedBatch claimCaptured(Collection<CapturedEvent> events) {
		limitClaimIdleTime();
		Map<UUID, CapturedEvent> byId = new HashMap<>(events.size() * 2);
		events.forEach((event) -> byId.put(event.id(), event));
		Set<UUID> heldBack = new HashSet<>();
		List<ClaimedEvent> claimed = this.jdbc.query(this.sql.claimByIds(), ids(byId.keySet()), (rs, row) -> {
			CapturedEvent event = byId.get(UUID.fromString(rs.getString("id")));
			OutboxMessage message = new OutboxMessage(event.id(), event.eventType(), event.aggregateType(),
					event.aggregateId(), event.destination(), event.messageKey(), event.payload(), event.headers(),
					this.vendor.readInstant(rs, "created_at"));
			if (rs.getInt("held_back") == 1) {
				heldBack.add(event.id());
			}
			return new ClaimedEvent(message, rs.getLong("seq"), event.transport(), rs.getInt("attempts"));
		});
		return new ClaimedBatch(claimed, (claimed.size() == byId.size()) ? heldBack : heldBack(claimed));
	}

	/**
	 * Has the database end the claim's transaction, releasing its row locks, if its connection stays
	 * idle longer than the claim idle limit: an instance that stops without dying would otherwise hold
	 * them, and with them every later event of their keys on every instance, until TCP gives up on the
	 * connection, hours later. A setting of the session, rather than of the transaction, is put back once
	 * the transaction has completed, before the pool lends the connection to the application again; where
	 * that cannot be arranged (no transaction synchronization), the claim has no limit.
	 */
	private void limitClaimIdleTime() {
		MapSqlParameterSource limit = this.claimIdleLimit;
		if (limit == null) {
			return;
		}
		boolean sessionSetting = !this.sql.resetClaimIdle().isEmpty();
		if (sessionSetting && !TransactionSynchronizationManager.isSynchronizationActive()) {
			return;
		}
		this.jdbc.execute(this.sql.limitClaimIdle(), limit, PreparedStatement::execute);
		if (sessionSetting) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCompletion(int status) {
					resetClaimIdleLimit();
				}

			});
		}
	}

	/**
	 * Runs after the transaction, on its connection, still bound until the transaction manager's
	 * clean-up. It fails where the limit ended the connection: the pool discards a connection that
	 * failed that way.
	 */
	private void resetClaimIdleLimit() {
		try {
			this.jdbc.getJdbcOperations().execute(this.sql.resetClaimIdle());
		}
		catch (DataAccessException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Could not put back the session's idle limit after an outbox claim; its connection "
						+ "is closed", ex);
			}
		}
	}

	/**
	 * Of the claimed rows, those with an earlier pending row of their key outside the claim: publishing
	 * them now could overtake that row.
	 */
	private Set<UUID> heldBack(List<ClaimedEvent> claimed) {
		if (claimed.isEmpty() || this.sql.heldBack().isEmpty()) {
			return Set.of();
		}
		List<UUID> ids = claimed.stream().map((event) -> event.message().id()).toList();
		return new HashSet<>(this.jdbc.query(this.sql.heldBack(), ids(ids),
				(rs, row) -> UUID.fromString(rs.getString(1))));
	}

	/**
	 * Marks rows published.
	 * @param ids the row ids
	 */
	public void markPublished(Collection<UUID> ids) {
		if (!ids.isEmpty()) {
			this.jdbc.update(this.sql.markPublished(), ids(ids));
		}
	}

	/**
	 * Makes the pending rows of a transport that wait out a retry backoff due now.
	 * @param transport the transport name
	 * @return how many rows became due
	 */
	public int resumeBackedOff(String transport) {
		return this.jdbc.update(this.sql.resumeBackedOff(), new MapSqlParameterSource("transport", transport));
	}

	/**
	 * Makes one destination's pending rows that wait out a retry backoff, or were postponed, due now.
	 * @param transport the transport name
	 * @param destination the destination
	 * @return how many rows were made due
	 */
	public int resumeBackedOff(String transport, String destination) {
		return this.jdbc.update(this.sql.resumeBackedOffDestination(),
				new MapSqlParameterSource("transport", transport).addValue("destination", destination));
	}

	/**
	 * Records failed attempts: each row gets its attempt counted and its next due time, or becomes
	 * {@code DEAD}.
	 * @param failures the failed attempts
	 */
	public void markFailed(List<FailedAttempt> failures) {
		if (failures.isEmpty()) {
			return;
		}
		SqlParameterSource[] rows = new SqlParameterSource[failures.size()];
		for (int i = 0; i < rows.length; i++) {
			FailedAttempt failure = failures.get(i);
			rows[i] = new MapSqlParameterSource().addValue("id", this.vendor.idParameter(failure.id()))
				.addValue("status", failure.dead() ? "DEAD" : "PENDING")
				.addValue("error", truncate(failure.error()))
				.addValue("delayMillis", failure.retryDelay().toMillis());
		}
		this.jdbc.batchUpdate(this.sql.markFailed(), rows);
	}

	/**
	 * Makes rows due later without counting an attempt: they were not sent. Their {@code last_error}
	 * says why they wait, and {@link #resumeBackedOff(String, String)} makes them due with the rows
	 * backing off.
	 * @param ids the row ids
	 * @param delay how long until the rows are due again
	 * @param reason why they were not sent, stored truncated in {@code last_error}
	 */
	public void postpone(Collection<UUID> ids, Duration delay, String reason) {
		if (!ids.isEmpty()) {
			this.jdbc.update(this.sql.postpone(),
					ids(ids).addValue("delayMillis", delay.toMillis()).addValue("reason", truncate(reason)));
		}
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

	/**
	 * Reads the backlog: pending and DEAD rows, and the oldest pending row, in one statement.
	 * @return the reading
	 */
	public BacklogReading readBacklog() {
		return this.jdbc.queryForObject(this.sql.backlog(), Map.of(),
				(rs, row) -> new BacklogReading(rs.getLong("pending"), this.vendor.readNullableInstant(rs, "oldest_pending"),
						rs.getLong("dead"), this.vendor.readInstant(rs, "database_now")));
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
	 * Deletes one pending or DEAD row: it is never published.
	 * @param id the row id
	 * @return whether a pending or DEAD row with that id was deleted
	 */
	public boolean discard(UUID id) {
		return this.jdbc.update(this.sql.discard(), new MapSqlParameterSource("id", this.vendor.idParameter(id))) > 0;
	}

	private MapSqlParameterSource ids(Collection<UUID> ids) {
		return new MapSqlParameterSource("ids", ids.stream().map(this.vendor::idParameter).toList());
	}

	private ClaimedEvent claimedEvent(ResultSet rs, int row) throws SQLException {
		OutboxMessage message = new OutboxMessage(UUID.fromString(rs.getString("id")), rs.getString("event_type"),
				rs.getString("aggregate_type"), rs.getString("aggregate_id"), rs.getString("destination"),
				rs.getString("message_key"), rs.getString("payload"), headers(rs.getString("headers")),
				this.vendor.readInstant(rs, "created_at"));
		return new ClaimedEvent(message, rs.getLong("seq"), rs.getString("transport"), rs.getInt("attempts"));
	}

	private StoredEvent storedEvent(ResultSet rs, int row) throws SQLException {
		return new StoredEvent(UUID.fromString(rs.getString("id")), rs.getLong("seq"), rs.getString("event_type"),
				rs.getString("transport"), rs.getString("destination"), rs.getString("message_key"),
				rs.getString("aggregate_type"), rs.getString("aggregate_id"), EventStatus.valueOf(rs.getString("status")),
				rs.getInt("attempts"), rs.getString("last_error"), this.vendor.readInstant(rs, "created_at"),
				this.vendor.readInstant(rs, "available_at"), this.vendor.readNullableInstant(rs, "published_at"),
				rs.getString("payload"), rs.getString("headers"));
	}

	private Map<String, String> headers(@Nullable String headers) {
		return (headers != null) ? this.json.readValue(headers, HEADERS) : Map.of();
	}

	private static String truncate(String error) {
		if (error.length() <= MAX_ERROR_LENGTH) {
			return error;
		}
		int end = MAX_ERROR_LENGTH - 3;
		if (Character.isHighSurrogate(error.charAt(end - 1))) {
			end--;
		}
		return error.substring(0, end) + "...";
	}

}
