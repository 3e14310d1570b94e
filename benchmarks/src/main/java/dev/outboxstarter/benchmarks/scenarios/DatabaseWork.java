package dev.outboxstarter.benchmarks.scenarios;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the database did during a measurement, read from PostgreSQL's statistics before and after it:
 * WAL bytes written (exact, from the WAL position, per transaction the writers counted), and the
 * transactions committed and rows inserted, updated and deleted in the contender's database, per
 * business row ({@code bench_order}) the same statistics counted. PostgreSQL's backends report those
 * counts at most once a second, and an idle one up to 10 s late, so the second reading misses the last
 * moments of the measurement; dividing by a count from the same statistics cancels that lag. The counters
 * are cluster- or database-wide, so they mean something only while nothing else writes. Statements per
 * transaction would need {@code pg_stat_statements}, which PostgreSQL loads only at start-up; where it is
 * not loaded, they are not counted. On other databases nothing is read.
 */
final class DatabaseWork {

	/** PostgreSQL flushes a backend's statistics at most this often, in milliseconds (and when idle). */
	private static final long STATISTICS_LAG_MILLIS = 1_100;

	private static final String READING = "SELECT pg_current_wal_lsn() - '0/0' AS wal_bytes, "
			+ "xact_commit + xact_rollback AS transactions, tup_inserted, tup_updated, tup_deleted, "
			+ "(SELECT COALESCE(SUM(n_tup_ins), 0) FROM pg_stat_user_tables WHERE schemaname = current_schema() "
			+ "AND relname = 'bench_order') AS business_rows FROM pg_stat_database WHERE datname = current_database()";

	private final long walBytes;

	private final long transactions;

	private final long inserted;

	private final long updated;

	private final long deleted;

	private final long businessRows;

	private DatabaseWork(ResultSet rs) throws SQLException {
		this.walBytes = rs.getLong("wal_bytes");
		this.transactions = rs.getLong("transactions");
		this.inserted = rs.getLong("tup_inserted");
		this.updated = rs.getLong("tup_updated");
		this.deleted = rs.getLong("tup_deleted");
		this.businessRows = rs.getLong("business_rows");
	}

	/**
	 * Reads the counters, or returns {@code null} for a database other than PostgreSQL.
	 * @param jdbcUrl the contender's database
	 * @param username its user
	 * @return the reading
	 */
	static DatabaseWork now(String jdbcUrl, String username) throws SQLException, InterruptedException {
		if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
			return null;
		}
		Thread.sleep(STATISTICS_LAG_MILLIS);
		try (Connection connection = DriverManager.getConnection(jdbcUrl, username, "");
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(READING)) {
			rs.next();
			return new DatabaseWork(rs);
		}
	}

	/**
	 * The work since {@code start}, per operation.
	 * @param start the earlier reading
	 * @param operations how many operations ran in between
	 * @return WAL bytes per operation; transactions and rows inserted, updated and deleted per business row
	 */
	Map<String, Double> perOperationSince(DatabaseWork start, int operations) {
		double business = this.businessRows - start.businessRows;
		Map<String, Double> work = new LinkedHashMap<>();
		work.put("walBytesPerTransaction", (this.walBytes - start.walBytes) / (double) operations);
		if (business > 0) {
			work.put("databaseTransactionsPerTransaction", (this.transactions - start.transactions) / business);
			work.put("rowsInsertedPerTransaction", (this.inserted - start.inserted) / business);
			work.put("rowsUpdatedPerTransaction", (this.updated - start.updated) / business);
			work.put("rowsDeletedPerTransaction", (this.deleted - start.deleted) / business);
		}
		return work;
	}

}
