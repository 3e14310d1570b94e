package dev.outboxstarter.faults;

import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import dev.outboxstarter.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The database side of a fault run: the counters, how each instance connects so that its connections
 * can be found again, and terminating them.
 */
final class FaultDatabase {

	private static final String PASSWORD = "fault";

	private final TestDatabase database;

	private final JdbcTemplate jdbc;

	FaultDatabase(TestDatabase database) {
		this.database = database;
		DataSource dataSource = database.dataSource();
		this.jdbc = new JdbcTemplate(dataSource);
	}

	TestDatabase database() {
		return this.database;
	}

	JdbcTemplate jdbc() {
		return this.jdbc;
	}

	/**
	 * Drops the outbox table and creates the counters, all at zero, and the instances' database users.
	 */
	void prepare(String outboxTable, int keys, List<String> instances) {
		this.database.dropTable(outboxTable);
		this.jdbc.execute("DROP TABLE IF EXISTS " + Counter.TABLE);
		this.jdbc.execute("CREATE TABLE " + Counter.TABLE + " (id INT NOT NULL PRIMARY KEY, total BIGINT NOT NULL)");
		this.jdbc.batchUpdate("INSERT INTO " + Counter.TABLE + " (id, total) VALUES (?, 0)",
				IntStream.range(0, keys).mapToObj((key) -> new Object[] { key }).toList());
		if (this.database == TestDatabase.MARIADB) {
			String schema = this.jdbc.queryForObject("SELECT DATABASE()", String.class);
			for (String instance : instances) {
				String user = user(instance);
				this.jdbc.execute("CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
				this.jdbc.execute("GRANT ALL PRIVILEGES ON " + schema + ".* TO '" + user + "'@'%'");
			}
		}
	}

	/**
	 * Spring properties that connect an instance so that {@link #terminateConnections} finds its
	 * connections: on PostgreSQL its {@code application_name} (JDBC URL parameter
	 * {@code ApplicationName}), on MariaDB a database user of its own.
	 */
	List<String> properties(String instance) {
		if (this.database == TestDatabase.POSTGRESQL) {
			String url = this.database.url();
			return List.of("spring.datasource.url=" + url + (url.contains("?") ? "&" : "?") + "ApplicationName="
					+ applicationName(instance), "spring.datasource.username=" + this.database.username(),
					"spring.datasource.password=" + this.database.password());
		}
		return List.of("spring.datasource.url=" + this.database.url(), "spring.datasource.username=" + user(instance),
				"spring.datasource.password=" + PASSWORD);
	}

	/**
	 * Terminates every database connection of an instance, in this database only: another checkout may
	 * run the suite at the same time, with the same instance names, on a database of its own
	 * ({@code OUTBOX_TEST_DATABASE}).
	 * @return how many were terminated
	 */
	int terminateConnections(String instance) {
		if (this.database == TestDatabase.POSTGRESQL) {
			return this.jdbc
				.queryForList("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ? "
						+ "AND datname = current_database()",
						Boolean.class, applicationName(instance))
				.stream()
				.filter(Boolean.TRUE::equals)
				.toList()
				.size();
		}
		List<Long> ids = this.jdbc.queryForList("SELECT id FROM information_schema.processlist WHERE user = ? AND db = DATABASE()",
				Long.class, user(instance));
		int killed = 0;
		for (Long id : ids) {
			try {
				this.jdbc.execute("KILL CONNECTION " + id);
				killed++;
			}
			catch (RuntimeException ex) {
				// Closed in the meantime.
			}
		}
		return killed;
	}

	/**
	 * Whether an instance is publishing a batch right now: one of its transactions holds locks on
	 * claimed outbox rows (PostgreSQL: a ROW SHARE lock on the outbox table, which only the claiming
	 * SELECT ... FOR UPDATE takes; MariaDB: a READ COMMITTED transaction of its user that holds row
	 * locks: the outbox publishes at READ COMMITTED, the business transactions run at the default
	 * REPEATABLE READ).
	 */
	boolean isPublishing(String instance, String outboxTable) {
		if (this.database == TestDatabase.POSTGRESQL) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
					+ "WHERE a.application_name = ? AND a.datname = current_database() AND l.relation = CAST(? AS regclass) "
					+ "AND l.mode = 'RowShareLock'",
					Integer.class, applicationName(instance), outboxTable) > 0;
		}
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.innodb_trx t "
				+ "JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id "
				+ "WHERE p.user = ? AND p.db = DATABASE() AND t.trx_isolation_level = 'READ COMMITTED' "
				+ "AND t.trx_rows_locked > 0",
				Integer.class, user(instance)) > 0;
	}

	/**
	 * What the instances' connections are running for longer than a moment (PostgreSQL only).
	 */
	List<String> slowStatements() {
		if (this.database != TestDatabase.POSTGRESQL) {
			return List.of();
		}
		return this.jdbc.queryForList("SELECT application_name || ' ' || state || ' ' || COALESCE(wait_event_type, '-') "
				+ "|| '/' || COALESCE(wait_event, '-') || ' ' || "
				+ "CAST(EXTRACT(EPOCH FROM clock_timestamp() - query_start) * 1000 AS INT) || ' ms: ' || LEFT(query, 160) "
				+ "FROM pg_stat_activity WHERE application_name LIKE 'fault-%' AND datname = current_database() "
				+ "AND state <> 'idle' "
				+ "AND clock_timestamp() - query_start > INTERVAL '1 second'", String.class);
	}

	private static String applicationName(String instance) {
		return "fault-" + instance;
	}

	private static String user(String instance) {
		return "fault_" + instance;
	}

}
