package dev.outboxstarter.internal.store;

import java.util.Map;
import java.util.Properties;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.jdbc.TableName;

import org.springframework.util.Assert;

/**
 * The SQL the outbox runs, loaded from {@code db/outbox/statements/<vendor>.properties} for one table.
 *
 * @param insert inserts one captured event
 * @param limitClaimIdle run first in a claim's transaction (empty for nothing): has the database end the
 * transaction once its connection has been idle longer than {@code :millis} ({@code :seconds}, rounded up)
 * @param resetClaimIdle run once a claim's transaction has completed (empty for nothing): puts back what
 * {@code limitClaimIdle} set for the session
 * @param beforeClaimDue run in the claim's transaction before {@code claimDue} (empty for nothing): on
 * PostgreSQL, keeps the planner to the pending index however stale the table's statistics are
 * @param claimDue locks due pending rows in seq order, skipping locked ones
 * @param claimByIds locks the pending rows among given ids, skipping locked ones, and flags those an
 * earlier pending row of their key outside the ids holds back
 * @param heldBack the claimed ids that an earlier pending row of their key outside the claim holds back
 * (empty without per-key ordering: nothing is held back)
 * @param markPublished marks rows published, or deletes them where the table keeps no published rows
 * @param markFailed records one failed attempt
 * @param postpone makes rows due later without counting an attempt: not sent, their destination paused
 * @param resumeBackedOff makes a transport's rows that wait out a retry backoff due now
 * @param resumeBackedOffDestination makes one destination's rows that wait out a retry backoff due now
 * @param retryDead puts one DEAD row back to pending
 * @param retryAllDead puts every DEAD row back to pending
 * @param retryAllDeadOfType puts the DEAD rows of one event type back to pending
 * @param deletePublished deletes a batch of rows published longer ago than the retention
 * @param deleteDead deletes a batch of rows that became DEAD longer ago than the retention
 * @param backlog counts pending and DEAD rows and reads the oldest pending row's age
 * @param countByStatus counts rows by status and transport
 * @param listByStatus lists a page of the rows of one status, in seq order
 * @param discard deletes one pending or DEAD row
 * @param deleteWritten deletes the rows just inserted, by id, for the log relay (empty where the vendor
 * has no log that Debezium reads)
 */
public record OutboxStatements(String insert, String limitClaimIdle, String resetClaimIdle, String beforeClaimDue, String claimDue, String claimByIds,
		String heldBack, String markPublished, String markFailed, String postpone, String resumeBackedOff,
		String resumeBackedOffDestination, String retryDead, String retryAllDead,
		String retryAllDeadOfType, String deletePublished, String deleteDead, String backlog, String countByStatus,
		String listByStatus, String discard, String deleteWritten) {

	/**
	 * Loads the statements of a vendor for a table.
	 * @param vendor the database vendor
	 * @param table the outbox table name, a plain SQL identifier, qualified by its schema or not
	 * @param keyOrdering which earlier rows of a row's key hold it back from claims
	 * @param publishedRows what {@link #markPublished()} does with the rows
	 * @return the statements
	 */
	public static OutboxStatements load(DatabaseVendor vendor, String table, KeyOrdering keyOrdering,
			PublishedRows publishedRows) {
		TableName.checkQualified(table);
		Properties sql = vendor.statements();
		boolean perKeyOrdering = keyOrdering != KeyOrdering.NONE;
		boolean deadBlocks = keyOrdering == KeyOrdering.PER_KEY_DEAD_BLOCKS;
		String deadHeldBack = deadBlocks ? sql.getProperty("dead-held-back") : "";
		Map<String, String> clauses = Map.of("{head-of-line}", perKeyOrdering ? sql.getProperty("head-of-line") : "",
				"{dead-head-of-line}", deadBlocks ? sql.getProperty("dead-head-of-line") : "", "{dead-held-back}",
				deadHeldBack, "{held-back-flag}",
				perKeyOrdering ? sql.getProperty("held-back-flag").replace("{dead-held-back}", deadHeldBack) : "0");
		String markPublishedStatement = (publishedRows == PublishedRows.DELETED) ? "delete-when-published"
				: "mark-published";
		return new OutboxStatements(expand(sql, "insert", table, clauses),
				expand(sql, "limit-claim-idle", table, clauses), expand(sql, "reset-claim-idle", table, clauses),
				expand(sql, "before-claim-due", table, clauses), expand(sql, "claim-due", table, clauses),
				expand(sql, "claim-by-ids", table, clauses), perKeyOrdering ? expand(sql, "held-back", table, clauses) : "",
				expand(sql, markPublishedStatement, table, clauses), expand(sql, "mark-failed", table, clauses),
				expand(sql, "postpone", table, clauses),
				expand(sql, "resume-backed-off", table, clauses),
				expand(sql, "resume-backed-off-destination", table, clauses),
				expand(sql, "retry-dead", table, clauses),
				expand(sql, "retry-all-dead", table, clauses), expand(sql, "retry-all-dead-of-type", table, clauses),
				expand(sql, "delete-published", table, clauses), expand(sql, "delete-dead", table, clauses),
				expand(sql, "backlog", table, clauses), expand(sql, "count-by-status", table, clauses),
				expand(sql, "list-by-status", table, clauses), expand(sql, "discard", table, clauses),
				sql.containsKey("delete-written") ? expand(sql, "delete-written", table, clauses) : "");
	}

	/**
	 * One of a vendor's statements for a table, its placeholders replaced.
	 * @param sql the vendor's statements
	 * @param name the statement's name
	 * @param table the outbox table name
	 * @param clauses the statement's own clauses by placeholder, besides {@code {columns}},
	 * {@code {details}}, {@code {table}} and {@code {table-name}} (the table without its schema)
	 * @return the statement
	 */
	static String expand(Properties sql, String name, String table, Map<String, String> clauses) {
		String statement = sql.getProperty(name);
		Assert.state(statement != null, () -> "No statement '" + name + "' for the outbox");
		statement = statement.replace("{columns}", sql.getProperty("columns"))
			.replace("{details}", sql.getProperty("details"));
		for (Map.Entry<String, String> clause : clauses.entrySet()) {
			statement = statement.replace(clause.getKey(), clause.getValue());
		}
		return statement.replace("{table-name}", TableName.unqualified(table)).replace("{table}", table);
	}

	/**
	 * Which earlier rows of a row's key hold it back from claims, so that a key's events are published in
	 * order.
	 */
	public enum KeyOrdering {

		/** None: rows are claimed as they are due, whatever their key ({@code outbox.ordering=none}). */
		NONE,

		/** An earlier pending row of the same key ({@code outbox.ordering=per-key}). */
		PER_KEY,

		/**
		 * An earlier pending or DEAD row of the same key ({@code outbox.ordering=per-key} with
		 * {@code outbox.dead-event-blocks-key=true}).
		 */
		PER_KEY_DEAD_BLOCKS

	}

	/**
	 * What marking a row published does with it.
	 */
	public enum PublishedRows {

		/** The row is kept, marked published, until the clean-up deletes it after its retention. */
		KEPT,

		/** The row is deleted at once, for a table that keeps no published rows. */
		DELETED

	}

}
