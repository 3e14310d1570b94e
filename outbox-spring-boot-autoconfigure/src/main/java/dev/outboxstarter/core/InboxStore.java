package dev.outboxstarter.core;

import java.time.Duration;

import javax.sql.DataSource;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * JDBC access to the inbox table: the message ids each consumer has processed. Inserts run in the
 * caller's transaction, the one that runs the consumer's handler.
 */
class InboxStore {

	/** The column's size; longer ids are refused rather than cut (MySQL's INSERT IGNORE would cut them). */
	public static final int MAX_ID_LENGTH = 255;

	private final NamedParameterJdbcTemplate jdbc;

	private final InboxStatements sql;

	public InboxStore(DataSource dataSource, InboxStatements statements) {
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.sql = statements;
	}

	/**
	 * Records that a consumer processes a message, unless it already did. A concurrent insert of the
	 * same id waits for the first transaction: if that commits, this one records nothing.
	 * @param consumer the consumer name
	 * @param messageId the message id
	 * @return {@code true} if the id is new for the consumer, {@code false} if it was processed before
	 */
	public boolean insertIfAbsent(String consumer, String messageId) {
		MapSqlParameterSource parameters = new MapSqlParameterSource("consumer", consumer).addValue("messageId",
				messageId);
		try {
			return this.jdbc.update(this.sql.insert(), parameters) > 0;
		}
		catch (DuplicateKeyException ex) {
			// Databases without an insert-if-absent (H2) report the duplicate as a failed insert.
			return false;
		}
	}

	/**
	 * Deletes up to {@code limit} ids processed longer ago than {@code retention}.
	 * @param retention how long ids are kept
	 * @param limit the batch size
	 * @return how many were deleted
	 */
	public int deleteExpired(Duration retention, int limit) {
		return this.jdbc.update(this.sql.deleteExpired(),
				new MapSqlParameterSource("retentionMillis", retention.toMillis()).addValue("limit", limit));
	}

}
