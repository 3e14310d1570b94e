package dev.outboxstarter.benchmarks.scenarios;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;

/**
 * What the database did during a measurement, read from its statistics before and after it. On
 * PostgreSQL: WAL bytes written (exact, from the WAL position, per transaction the writers counted), and the
 * transactions committed and rows inserted, updated and deleted in the contender's database, per
 * business row ({@code bench_order}) the same statistics counted. PostgreSQL's backends report those
 * counts at most once a second, and an idle one up to 10 s late, so the second reading misses the last
 * moments of the measurement; dividing by a count from the same statistics cancels that lag. The counters
 * are cluster- or database-wide, so they mean something only while nothing else writes. Statements per
 * business row, in all and the most frequent by their text, come from {@code pg_stat_statements} where
 * the server loads it ({@code shared_preload_libraries}, which takes a restart) and the database has
 * the extension in its {@code public} schema; otherwise they are not counted. On MariaDB: the InnoDB redo log written (its log sequence number,
 * in bytes), the commits and the rows the storage engines wrote, updated and deleted ({@code Handler_*},
 * server-wide and counted at once, internal temporary tables included), per business row (the growth
 * of {@code bench_order}'s largest id).
 */
final class DatabaseWork {

	/** PostgreSQL flushes a backend's statistics at most this often, in milliseconds (and when idle). */
	private static final long STATISTICS_LAG_MILLIS = 1_100;

	private static final String POSTGRESQL_READING = "SELECT pg_current_wal_lsn() - '0/0', "
			+ "xact_commit + xact_rollback, tup_inserted, tup_updated, tup_deleted, "
			+ "(SELECT COALESCE(SUM(n_tup_ins), 0) FROM pg_stat_user_tables WHERE schemaname = current_schema() "
			+ "AND relname = 'bench_order') FROM pg_stat_database WHERE datname = current_database()";

	private static final String POSTGRESQL_STATEMENTS_LOADED = "SELECT to_regclass('public.pg_stat_statements') IS NOT NULL "
			+ "AND current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%'";

	private static final String POSTGRESQL_STATEMENTS = "SELECT queryid, calls, query FROM public.pg_stat_statements "
			+ "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())";

	private static final String MARIADB_READING = "SELECT "
			+ "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_LSN_CURRENT'), "
			+ "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'COM_COMMIT'), "
			+ "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'HANDLER_WRITE'), "
			+ "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'HANDLER_UPDATE'), "
			+ "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'HANDLER_DELETE'), "
			+ "(SELECT COALESCE(MAX(id), 0) FROM bench_order)";

	/** How many of the most frequent statements the result lists by their text. */
	private static final int LISTED_STATEMENTS = 8;

	private final long walBytes;

	private final long transactions;

	private final long inserted;

	private final long updated;

	private final long deleted;

	private final long businessRows;

	/** Calls by {@code pg_stat_statements} query id, with its text; empty where it is not loaded. */
	private final Map<Long, Calls> statements;

	private DatabaseWork(ResultSet rs, Map<Long, Calls> statements) throws SQLException {
		this.walBytes = rs.getLong(1);
		this.transactions = rs.getLong(2);
		this.inserted = rs.getLong(3);
		this.updated = rs.getLong(4);
		this.deleted = rs.getLong(5);
		this.businessRows = rs.getLong(6);
		this.statements = statements;
	}

	/**
	 * Reads the counters.
	 * @param jdbcUrl the contender's database, with its schema
	 * @param username its user
	 * @return the reading
	 */
	static DatabaseWork now(String jdbcUrl, String username) throws SQLException, InterruptedException {
		BenchmarkDatabase database = BenchmarkDatabase.of(jdbcUrl);
		if (database == BenchmarkDatabase.POSTGRESQL) {
			Thread.sleep(STATISTICS_LAG_MILLIS);
		}
		try (Connection connection = DriverManager.getConnection(jdbcUrl, username, "");
				Statement statement = connection.createStatement()) {
			Map<Long, Calls> statements = (database == BenchmarkDatabase.POSTGRESQL) ? statements(statement) : Map.of();
			try (ResultSet rs = statement.executeQuery(switch (database) {
				case POSTGRESQL -> POSTGRESQL_READING;
				case MARIADB -> MARIADB_READING;
			})) {
				rs.next();
				return new DatabaseWork(rs, statements);
			}
		}
	}

	private static Map<Long, Calls> statements(Statement statement) throws SQLException {
		try (ResultSet loaded = statement.executeQuery(POSTGRESQL_STATEMENTS_LOADED)) {
			loaded.next();
			if (!loaded.getBoolean(1)) {
				return Map.of();
			}
		}
		Map<Long, Calls> statements = new HashMap<>();
		try (ResultSet rs = statement.executeQuery(POSTGRESQL_STATEMENTS)) {
			while (rs.next()) {
				statements.put(rs.getLong(1), new Calls(rs.getLong(2), rs.getString(3)));
			}
		}
		return statements;
	}

	/**
	 * The work since {@code start}, per operation.
	 * @param start the earlier reading
	 * @param operations how many operations ran in between
	 * @return WAL bytes per operation; transactions and rows inserted, updated and deleted per business
	 * row; and, where statements are counted, the statements per operation, in all and the most frequent
	 * kinds
	 */
	Map<String, Object> perOperationSince(DatabaseWork start, int operations) {
		double business = this.businessRows - start.businessRows;
		Map<String, Object> work = new LinkedHashMap<>();
		work.put("walBytesPerTransaction", (this.walBytes - start.walBytes) / (double) operations);
		if (business > 0) {
			work.put("databaseTransactionsPerTransaction", (this.transactions - start.transactions) / business);
			work.put("rowsInsertedPerTransaction", (this.inserted - start.inserted) / business);
			work.put("rowsUpdatedPerTransaction", (this.updated - start.updated) / business);
			work.put("rowsDeletedPerTransaction", (this.deleted - start.deleted) / business);
		}
		if (!this.statements.isEmpty()) {
			// pg_stat_statements counts a call as it ends, unlike the table statistics: per measured
			// transaction, not per business row. One kind of statement with lists of different lengths
			// is one entry.
			Map<String, Long> calls = new HashMap<>();
			this.statements.forEach((id, after) -> {
				long before = start.statements.getOrDefault(id, new Calls(0, after.query())).calls();
				if (after.calls() > before) {
					calls.merge(kind(after.query()), after.calls() - before, Long::sum);
				}
			});
			work.put("statementsPerTransaction",
					calls.values().stream().mapToLong(Long::longValue).sum() / (double) operations);
			work.put("statements", calls.entrySet()
				.stream()
				.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
				.limit(LISTED_STATEMENTS)
				.map((entry) -> String.format(Locale.ROOT, "%.3f %s", entry.getValue() / (double) operations,
						entry.getKey()))
				.toList());
		}
		return work;
	}

	/** A statement's text with its parameters as {@code ?} and a list of them as {@code (...)}. */
	private static String kind(String query) {
		return query.replaceAll("\\s+", " ").replaceAll("\\$\\d+", "?").replaceAll("\\(\\?(, \\?)*\\)", "(...)");
	}

	private record Calls(long calls, String query) {
	}

}
