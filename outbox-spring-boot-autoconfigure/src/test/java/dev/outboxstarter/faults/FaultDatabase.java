package dev.outboxstarter.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import dev.outboxstarter.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The database side of a fault run: the counters (and the tenants' schemas, with counters of their
 * own), how each instance connects so that its connections can be found again, and terminating them.
 */
final class FaultDatabase {

	private static final String PASSWORD = "fault";

	private final TestDatabase database;

	private final JdbcTemplate jdbc;

	/** The schemas of the run's tenants (databases, on MariaDB). */
	private List<String> tenantSchemas = List.of();

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
		prepare(outboxTable, keys, instances, List.of());
	}

	/**
	 * Drops the outbox table and creates the counters, all at zero, and the instances' database users;
	 * and for each tenant a new schema (a database, on MariaDB) with counters of its own, where the
	 * outbox makes the tenant's table.
	 */
	void prepare(String outboxTable, int keys, List<String> instances, List<String> tenants) {
		this.database.dropTable(outboxTable);
		createCounters(Counter.TABLE, keys);
		this.tenantSchemas = tenants.stream().map(this::tenantSchema).toList();
		for (String schema : this.tenantSchemas) {
			// Dropped with what the outbox made in it the last time: its table and migration history.
			if (this.database == TestDatabase.MARIADB) {
				this.jdbc.execute("DROP DATABASE IF EXISTS " + schema);
				this.jdbc.execute("CREATE DATABASE " + schema);
			}
			else {
				this.jdbc.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
				this.jdbc.execute("CREATE SCHEMA " + schema);
			}
			createCounters(schema + "." + Counter.TABLE, keys);
		}
		if (this.database == TestDatabase.MARIADB) {
			String schema = this.jdbc.queryForObject("SELECT DATABASE()", String.class);
			for (String instance : instances) {
				String user = user(instance);
				this.jdbc.execute("CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
				this.jdbc.execute("GRANT ALL PRIVILEGES ON " + schema + ".* TO '" + user + "'@'%'");
				for (String tenantSchema : this.tenantSchemas) {
					this.jdbc.execute("GRANT ALL PRIVILEGES ON " + tenantSchema + ".* TO '" + user + "'@'%'");
				}
			}
		}
	}

	private void createCounters(String table, int keys) {
		this.jdbc.execute("DROP TABLE IF EXISTS " + table);
		this.jdbc.execute("CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY, total BIGINT NOT NULL)");
		this.jdbc.batchUpdate("INSERT INTO " + table + " (id, total) VALUES (?, 0)",
				IntStream.range(0, keys).mapToObj((key) -> new Object[] { key }).toList());
	}

	/**
	 * The schema of a tenant of this database's runs: on MariaDB a database of the server, so named
	 * after the run's database, which another checkout's runs do not share.
	 * @param tenant the tenant
	 * @return the schema's name
	 */
	String tenantSchema(String tenant) {
		if (this.database == TestDatabase.MARIADB) {
			return this.jdbc.queryForObject("SELECT DATABASE()", String.class) + "_fault_" + tenant;
		}
		return "fault_tenant_" + tenant;
	}

	/**
	 * Whether a table exists.
	 * @param schema its schema (a database, on MariaDB)
	 * @param table its name
	 * @return whether it does
	 */
	boolean tableExists(String schema, String table) {
		return this.jdbc.queryForObject(
				"SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?",
				Integer.class, schema, table) > 0;
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
		// A connection of a tenant's transaction is in the tenant's database for that time.
		List<Object> arguments = new ArrayList<>(List.of(user(instance)));
		arguments.addAll(this.tenantSchemas);
		List<Long> ids = this.jdbc.queryForList("SELECT id FROM information_schema.processlist WHERE user = ? "
				+ "AND (db = DATABASE()" + " OR db = ?".repeat(this.tenantSchemas.size()) + ")", Long.class,
				arguments.toArray());
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
	 * Whether an instance is publishing a batch right now.
	 * @see #isPublishing(String, List)
	 */
	boolean isPublishing(String instance, String outboxTable) {
		return isPublishing(instance, List.of(outboxTable));
	}

	/**
	 * Whether an instance is publishing a batch right now: one of its transactions holds locks on
	 * claimed outbox rows (PostgreSQL: a ROW SHARE lock on an outbox table, which only the claiming
	 * SELECT ... FOR UPDATE takes; MariaDB: a READ COMMITTED transaction of its user that holds row
	 * locks: the outbox publishes at READ COMMITTED, the business transactions run at the default
	 * REPEATABLE READ).
	 */
	boolean isPublishing(String instance, List<String> outboxTables) {
		if (this.database == TestDatabase.POSTGRESQL) {
			List<Object> arguments = new ArrayList<>(List.of(applicationName(instance)));
			arguments.addAll(outboxTables);
			String relations = String.join(", ", Collections.nCopies(outboxTables.size(), "CAST(? AS regclass)"));
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
					+ "WHERE a.application_name = ? AND a.datname = current_database() AND l.relation IN (" + relations
					+ ") AND l.mode = 'RowShareLock'", Integer.class, arguments.toArray()) > 0;
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
