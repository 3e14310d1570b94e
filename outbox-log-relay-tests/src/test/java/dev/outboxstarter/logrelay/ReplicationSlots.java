package dev.outboxstarter.logrelay;

import java.time.Duration;
import java.util.List;

import dev.outboxstarter.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.awaitility.Awaitility.await;

/**
 * The tests' replication slots and publications on the local PostgreSQL. A slot keeps every WAL segment
 * from its position on, so no test leaves one behind, and each run uses names of its own: Connect's
 * offsets and Debezium's slot outlive a connector.
 */
final class ReplicationSlots {

	static final String PREFIX = "outbox_relay_test_";

	private static final JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());

	private ReplicationSlots() {
	}

	static String database() {
		String url = TestDatabase.POSTGRESQL.url();
		String path = url.substring(url.lastIndexOf('/') + 1);
		int parameters = path.indexOf('?');
		return (parameters >= 0) ? path.substring(0, parameters) : path;
	}

	/**
	 * The JDBC URL of another database on the tests' PostgreSQL server.
	 * @param database its name
	 * @return its URL, with the tests' database's parameters
	 */
	static String url(String database) {
		String url = TestDatabase.POSTGRESQL.url();
		String path = url.substring(url.lastIndexOf('/') + 1);
		int parameters = path.indexOf('?');
		return url.substring(0, url.lastIndexOf('/') + 1) + database
				+ ((parameters >= 0) ? path.substring(parameters) : "");
	}

	/**
	 * Creates another database on the tests' PostgreSQL server, unless it exists.
	 * @param database its name
	 */
	static void createDatabase(String database) {
		Boolean exists = jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ?)",
				Boolean.class, database);
		if (!Boolean.TRUE.equals(exists)) {
			jdbc.execute("CREATE DATABASE " + database);
		}
	}

	/**
	 * Drops an outbox table and its history tables in another database of the tests' server.
	 * @param database the database
	 * @param table the table
	 */
	static void dropTable(String database, String table) {
		JdbcTemplate other = jdbc(database);
		for (String name : List.of(table, table + "_schema_history", table + "_script_history")) {
			other.execute("DROP TABLE IF EXISTS " + name);
		}
	}

	/**
	 * A slot, publication and connector name for this run.
	 * @param purpose what it is for, a plain identifier
	 * @return the name
	 */
	static String newName(String purpose) {
		return PREFIX + purpose + "_" + Long.toString(System.nanoTime(), 36);
	}

	static boolean isActive(String slot) {
		return Boolean.TRUE.equals(jdbc.query("SELECT active FROM pg_replication_slots WHERE slot_name = ?",
				(rs) -> rs.next() ? rs.getBoolean(1) : null, slot));
	}

	/**
	 * Drops a slot once no connector reads it, and its publication.
	 * @param name the slot's and the publication's name
	 */
	static void drop(String name) {
		drop(jdbc, name);
	}

	/**
	 * Drops a slot of another database once no connector reads it, and its publication there.
	 * @param database the database the slot and the publication were created in
	 * @param name the slot's and the publication's name
	 */
	static void drop(String database, String name) {
		drop(jdbc(database), name);
	}

	private static void drop(JdbcTemplate jdbc, String name) {
		await("slot " + name + " released").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> !isActive(name));
		jdbc.query("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?",
				(rs) -> {
				}, name);
		jdbc.execute("DROP PUBLICATION IF EXISTS " + name);
	}

	/**
	 * Drops what an earlier run of this database's tests left behind (a JVM killed before it cleaned up).
	 */
	static void dropLeftovers() {
		dropLeftovers(jdbc);
	}

	/**
	 * Drops what an earlier run of the tests left behind in another database.
	 * @param database the database
	 */
	static void dropLeftovers(String database) {
		dropLeftovers(jdbc(database));
	}

	private static void dropLeftovers(JdbcTemplate jdbc) {
		List<String> slots = jdbc.queryForList("SELECT slot_name FROM pg_replication_slots WHERE NOT active "
				+ "AND database = current_database() AND slot_name LIKE '" + PREFIX + "%'", String.class);
		slots.forEach((slot) -> drop(jdbc, slot));
		jdbc.queryForList("SELECT pubname FROM pg_publication WHERE pubname LIKE '" + PREFIX + "%'", String.class)
			.forEach((publication) -> jdbc.execute("DROP PUBLICATION IF EXISTS " + publication));
	}

	/**
	 * The rows of an outbox table in another database, whatever their status.
	 * @param database the database
	 * @param table the table
	 * @return how many there are
	 */
	static long rows(String database, String table) {
		return jdbc(database).queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
	}

	private static JdbcTemplate jdbc(String database) {
		return new JdbcTemplate(new DriverManagerDataSource(url(database), TestDatabase.POSTGRESQL.username(),
				TestDatabase.POSTGRESQL.password()));
	}

	static long pendingRows(String table) {
		return jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE status = 'PENDING'", Long.class);
	}

	static String currentLsn() {
		return jdbc.queryForObject("SELECT pg_current_wal_lsn()::text", String.class);
	}

	/**
	 * Whether the slot's consumer has confirmed everything up to an LSN: the connector has published
	 * every change committed before it.
	 * @param slot the slot
	 * @param lsn the LSN
	 * @return whether it has
	 */
	static boolean confirmedUpTo(String slot, String lsn) {
		return Boolean.TRUE.equals(jdbc.queryForObject(
				"SELECT confirmed_flush_lsn >= CAST(? AS pg_lsn) FROM pg_replication_slots WHERE slot_name = ?",
				Boolean.class, lsn, slot));
	}

}
