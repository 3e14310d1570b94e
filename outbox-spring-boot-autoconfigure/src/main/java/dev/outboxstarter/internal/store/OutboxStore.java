package dev.outboxstarter.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.util.Assert;

/**
 * What capture and delivery do with the outbox table: insert captured events, claim due or captured
 * rows, and write back what publishing them did. Claims and marks run in the caller's transaction, so
 * row locks last exactly as long as the caller publishes, and, where the database can end an idle
 * transaction, no longer than the {@link ClaimIdleLimit} when the caller stops without dying. What
 * operations and housekeeping read and do is {@link StoredEvents}.
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

	private final NamedParameterJdbcTemplate jdbc;

	private final DatabaseVendor vendor;

	private final OutboxStatements sql;

	private final OutboxInsert insert;

	private final JsonMapper json;

	/** Whether the rows are deleted again in the transaction that inserts them, for the log relay. */
	private final boolean logOnly;

	/** The claims' idle limit, or {@code null} for none. */
	private final @Nullable ClaimIdleLimit claimIdleLimit;

	/**
	 * Creates a store.
	 * @param dataSource the application's data source
	 * @param vendor its database
	 * @param statements the SQL for that database and table
	 * @param json writes and reads the headers column
	 * @param relaying how the rows reach the broker
	 * @param claimIdleLimit how long a claim's connection may stay idle before the database ends its
	 * transaction (see {@link ClaimIdleLimit#forPublishTimeout(Duration)}), or {@code null} for no limit
	 * @throws IllegalStateException when the rows are to be carried by the log of a database that has none
	 * Debezium reads
	 */
	public OutboxStore(DataSource dataSource, DatabaseVendor vendor, OutboxStatements statements, JsonMapper json,
			Relaying relaying, @Nullable Duration claimIdleLimit) {
		boolean logOnly = relaying == Relaying.FROM_LOG;
		Assert.state(!logOnly || !statements.deleteWritten().isEmpty(), () -> "outbox.relay.mode=log needs a "
				+ "database whose change log Debezium reads (PostgreSQL with wal_level=logical, MySQL or MariaDB with "
				+ "the row-based binlog), but this one is " + vendor + ": set outbox.relay.mode=polling");
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.vendor = vendor;
		this.sql = statements;
		this.insert = new OutboxInsert(this.jdbc.getJdbcOperations(), vendor, statements.insert(), json);
		this.json = json;
		this.logOnly = logOnly;
		this.claimIdleLimit = (claimIdleLimit != null && !statements.limitClaimIdle().isEmpty())
				? new ClaimIdleLimit(this.jdbc, statements, claimIdleLimit) : null;
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
	 * @param availableAfter how long the relay leaves the events published at once alone: the grace period
	 * of the {@link RelayHandOff}
	 */
	public void insert(List<CapturedEvent> events, Duration availableAfter) {
		this.insert.insert(events, availableAfter);
		if (this.logOnly) {
			this.jdbc.update(this.sql.deleteWritten(), ids(events.stream().map(CapturedEvent::id).toList()));
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
		limitIdleTime();
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
		limitIdleTime();
		Map<UUID, CapturedEvent> byId = new HashMap<>(events.size() * 2);
		events.forEach((event) -> byId.put(event.id(), event));
		Set<UUID> heldBack = new HashSet<>();
		List<ClaimedEvent> claimed = this.jdbc.query(this.sql.claimByIds(), ids(byId.keySet()), (rs, row) -> {
			CapturedEvent event = byId.get(UUID.fromString(rs.getString("id")));
			OutboxMessage message = new OutboxMessage(event.id(), event.eventType(), event.aggregateType(),
					event.aggregateId(), event.destination(), event.messageKey(), event.payload(), event.headers(),
					this.vendor.readInstant(rs, "created_at"), null, event.contentType());
			if (rs.getInt("held_back") == 1) {
				heldBack.add(event.id());
			}
			return new ClaimedEvent(message, rs.getLong("seq"), event.transport(), rs.getInt("attempts"));
		});
		return new ClaimedBatch(claimed, (claimed.size() == byId.size()) ? heldBack : heldBack(claimed));
	}

	/**
	 * Has the database end the claim's transaction if its connection stays idle longer than the claim idle
	 * limit.
	 */
	private void limitIdleTime() {
		ClaimIdleLimit limit = this.claimIdleLimit;
		if (limit != null) {
			limit.applyToClaim();
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

	private MapSqlParameterSource ids(Collection<UUID> ids) {
		return new MapSqlParameterSource("ids", ids.stream().map(this.vendor::idParameter).toList());
	}

	private ClaimedEvent claimedEvent(ResultSet rs, int row) throws SQLException {
		OutboxMessage message = new OutboxMessage(UUID.fromString(rs.getString("id")), rs.getString("event_type"),
				rs.getString("aggregate_type"), rs.getString("aggregate_id"), rs.getString("destination"),
				rs.getString("message_key"), rs.getString("payload"), headers(rs.getString("headers")),
				this.vendor.readInstant(rs, "created_at"), this.vendor.readNullableInstant(rs, "deliver_at"),
				rs.getString("content_type"));
		return new ClaimedEvent(message, rs.getLong("seq"), rs.getString("transport"), rs.getInt("attempts"));
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

	/**
	 * How the rows reach the broker.
	 */
	public enum Relaying {

		/** Claimed from the table by the fast path and the relay. */
		POLLED,

		/**
		 * Carried to Debezium by the database's log: each row is deleted again in the transaction that
		 * inserts it, and the table stays empty.
		 */
		FROM_LOG

	}

}
