package dev.outboxstarter.internal.inbox;

import java.time.Duration;

import javax.sql.DataSource;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * JDBC access to the inbox table: the message ids each consumer has processed, with the source each id
 * is unique in. Inserts run in the caller's transaction, the one that runs the consumer's handler. Ids
 * and sources are compared byte for byte.
 */
public class InboxStore {

	/**
	 * The size of the source and id columns, in bytes of UTF-8 (the unit of MariaDB's and MySQL's binary
	 * columns). Longer values are refused before the insert, so that no database in a lenient SQL mode
	 * cuts one down to a value processed before.
	 */
	public static final int MAX_BYTES = 255;

	/** The source stored for ids unique everywhere, such as the outbox's own. */
	public static final String NO_SOURCE = "";

	private final NamedParameterJdbcTemplate jdbc;

	private final InboxStatements sql;

	public InboxStore(DataSource dataSource, InboxStatements statements) {
		this.jdbc = new NamedParameterJdbcTemplate(dataSource);
		this.sql = statements;
	}

	/**
	 * Records that a consumer processes a message, unless it already did. A concurrent insert of the
	 * same id waits for the first transaction: if that commits, this one records nothing. Any failure
	 * other than the duplicate key is thrown.
	 * @param consumer the consumer name
	 * @param source where the id is unique, {@link #NO_SOURCE} for an id unique everywhere
	 * @param messageId the message id
	 * @return {@code true} if the id is new for the consumer and source, {@code false} if it was processed
	 * before
	 */
	public boolean insertIfAbsent(String consumer, String source, String messageId) {
		MapSqlParameterSource parameters = new MapSqlParameterSource("consumer", consumer).addValue("source", source)
			.addValue("messageId", messageId);
		try {
			return this.jdbc.update(this.sql.insert(), parameters) > 0;
		}
		catch (DuplicateKeyException ex) {
			// Databases without an insert-if-absent that skips only duplicates (MariaDB, MySQL, H2) report
			// the duplicate as a failed insert, which leaves their transaction usable.
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
