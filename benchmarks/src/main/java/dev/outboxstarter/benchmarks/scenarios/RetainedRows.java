package dev.outboxstarter.benchmarks.scenarios;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import dev.outboxstarter.benchmarks.Contender;
import dev.outboxstarter.benchmarks.ContenderSettings;

/**
 * Whether the outbox's costs stay flat as its table grows: the starter's table first gets
 * {@code retained} published rows, as {@code outbox.cleanup.published-retention} keeps them (a busy
 * service keeps millions for its default 7 days), then the write cost is measured, then the drain
 * after an outage of the running broker ({@link BacklogDrain#afterRestart}), where the relay's claim,
 * send and mark of batch after batch is the whole of the work. Run with 0 and with many retained rows,
 * the ratios of the two say what the retained rows cost the writers and the claims.
 * <p>
 * The rows are inserted with one SQL statement, not through the application, which would take hours:
 * the columns the starter writes, {@code PUBLISHED} an hour ago, with time-ordered ids older than
 * every id the application makes afterwards, as its own UUIDv7 ids would be. The table is then
 * vacuumed and analyzed, as autovacuum would have while the rows accumulated.
 */
public final class RetainedRows {

	/** The starter's default {@code outbox.table-name}, which the starter contender keeps. */
	private static final String TABLE = "outbox_event";

	private static final String COLUMNS = " (id, event_type, transport, destination, message_key, payload, status,"
			+ " attempts, available_at, created_at, published_at) ";

	/**
	 * Time-ordered UUIDs, one a millisecond from {@code ?} rows before now and an hour back; the rows
	 * numbered by {@code generate_series}.
	 */
	private static final String POSTGRESQL_INSERT = "INSERT INTO " + TABLE + COLUMNS
			+ "SELECT (lpad(to_hex(start + n), 12, '0') || '7' || lpad(to_hex(n % 4096), 3, '0') || '8'"
			+ " || lpad(to_hex(n), 15, '0'))::uuid, 'OrderPlaced', 'kafka', ?, 'retained-' || n,"
			+ " '{\"key\":\"retained-' || n || '\",\"payload\":\"a published event kept for its retention\"}',"
			+ " 'PUBLISHED', 1, now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour'"
			+ " FROM (SELECT (extract(epoch FROM now()) * 1000)::bigint - 3600000 - ? AS start) AS clock,"
			+ " generate_series(0, ? - 1) AS n";

	/**
	 * The same with MariaDB's sequence engine numbering the rows; the id is the starter's
	 * {@code CHAR(36)} text form, its times UTC.
	 */
	private static final String MARIADB_INSERT = "INSERT INTO " + TABLE + COLUMNS
			+ "SELECT LOWER(CONCAT_WS('-', LPAD(HEX((start + seq) DIV 65536), 8, '0'),"
			+ " LPAD(HEX((start + seq) MOD 65536), 4, '0'), CONCAT('7', LPAD(HEX(seq MOD 4096), 3, '0')),"
			+ " CONCAT('8', LPAD(HEX(seq DIV 281474976710656), 3, '0')), LPAD(HEX(seq MOD 281474976710656), 12, '0'))),"
			+ " 'OrderPlaced', 'kafka', ?, CONCAT('retained-', seq),"
			+ " CONCAT('{\"key\":\"retained-', seq, '\",\"payload\":\"a published event kept for its retention\"}'),"
			+ " 'PUBLISHED', 1, UTC_TIMESTAMP(6) - INTERVAL 1 HOUR, UTC_TIMESTAMP(6) - INTERVAL 1 HOUR,"
			+ " UTC_TIMESTAMP(6) - INTERVAL 1 HOUR"
			+ " FROM (SELECT CAST(UNIX_TIMESTAMP(UTC_TIMESTAMP(3)) * 1000 AS UNSIGNED) - 3600000 - ? AS start) AS clock,"
			+ " seq_0_to_%d";

	private RetainedRows() {
	}

	/**
	 * @param contender the starter, running
	 * @param settings its database, schema, broker and topic
	 * @param retained how many published rows its table gets first
	 * @param transactions the write cost's measured transactions (8 threads)
	 * @param warmup the write cost's warm-up
	 * @param events the backlog the drain after an outage publishes
	 * @param limit how long to wait for the drain
	 * @param stopBroker stops the broker and returns once it has
	 * @param startBroker starts the broker again and returns once it answers
	 * @return the write cost's and the drain's figures, and how long the rows took to insert
	 */
	public static Map<String, Object> run(Contender contender, ContenderSettings settings, int retained,
			int transactions, int warmup, int events, Duration limit, Runnable stopBroker, Runnable startBroker)
			throws Exception {
		long started = System.nanoTime();
		if (retained > 0) {
			insert(settings, retained);
		}
		double insertSeconds = (System.nanoTime() - started) / 1e9;
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("retainedRows", retained);
		result.put("insertSeconds", insertSeconds);
		Map<String, Object> write = WriteCost.run(contender, settings, transactions, 8, warmup, "order");
		result.put("transactionsPerSecond", write.get("transactionsPerSecond"));
		result.put("p99Millis", write.get("p99Millis"));
		result.put("databaseCpuMicrosPerTransaction", write.get("databaseCpuMicrosPerTransaction"));
		// The write cost's events are all published by now (the fast path keeps up at this rate): the
		// drain's own warm-up waits for its events to arrive, which would fail otherwise.
		Map<String, Object> drain = BacklogDrain.afterRestart(contender, stopBroker, startBroker,
				settings.bootstrapServers(), settings.topic(), events, 1_000, limit);
		result.put("drainSeconds", drain.get("drainSeconds"));
		result.put("eventsPerSecond", drain.get("eventsPerSecond"));
		result.put("lost", drain.get("lost"));
		return result;
	}

	private static void insert(ContenderSettings settings, int rows) throws Exception {
		BenchmarkDatabase database = BenchmarkDatabase.of(settings.jdbcUrl());
		try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), settings.username(), "")) {
			String sql = switch (database) {
				case POSTGRESQL -> POSTGRESQL_INSERT;
				// The sequence engine's table names its last number; it cannot be a parameter.
				case MARIADB -> MARIADB_INSERT.formatted(rows - 1);
			};
			try (PreparedStatement insert = connection.prepareStatement(sql)) {
				insert.setString(1, settings.topic());
				insert.setLong(2, rows);
				if (database == BenchmarkDatabase.POSTGRESQL) {
					insert.setInt(3, rows);
				}
				insert.executeUpdate();
			}
			try (Statement maintenance = connection.createStatement()) {
				maintenance.execute(switch (database) {
					case POSTGRESQL -> "VACUUM ANALYZE " + TABLE;
					case MARIADB -> "ANALYZE TABLE " + TABLE;
				});
			}
		}
	}

}
