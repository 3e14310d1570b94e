package dev.outboxstarter.benchmarks.contenders.logrelay;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.starter.StarterContender;
import dev.outboxstarter.logrelay.ConnectWorker;

/**
 * The starter with {@code outbox.relay.mode=log}: the application inserts and deletes each event in its
 * business transaction, and Debezium's PostgreSQL connector on a Kafka Connect worker (a process of its
 * own, standalone mode, the shipped {@code connectors/postgresql.json} and the outbox's transform)
 * publishes it from the write-ahead log. The worker shares the machine's cores with the contender, as
 * the starter's own relay does.
 */
public class LogRelayContender extends StarterContender {

	private static final String PREFIX = "outbox_bench_";

	private final int pollIntervalMillis;

	private ConnectWorker worker;

	private String name;

	private String jdbcUrl;

	private String username;

	/**
	 * Creates the contender.
	 * @param pollIntervalMillis Debezium's {@code poll.interval.ms}: how long the connector waits for
	 * more changes before it hands a batch on
	 */
	public LogRelayContender(int pollIntervalMillis) {
		super(Map.of("outbox.relay.mode", "log"));
		this.pollIntervalMillis = pollIntervalMillis;
	}

	@Override
	public void start(ContenderSettings settings) {
		this.jdbcUrl = settings.jdbcUrl();
		this.username = settings.username();
		// The application creates the table that the connector's publication names.
		super.start(settings);
		dropLeftoverSlots();
		this.name = PREFIX + Long.toString(System.nanoTime(), 36);
		URI database = URI.create(settings.jdbcUrl().substring("jdbc:".length()));
		this.worker = ConnectWorker.prepare(
				Path.of(System.getProperty("outbox.connect-worker.classpath",
						"../outbox-log-relay-tests/target/connect-worker.classpath")),
				Path.of(System.getProperty("outbox.connectors.directory", "../outbox-kafka-connect/connectors"),
						"postgresql.json"),
				settings.bootstrapServers(), this.name,
				Map.of("database.hostname", database.getHost(), "database.port", String.valueOf(database.getPort()),
						"database.user", settings.username(), "database.password", "", "database.dbname",
						database.getPath().substring(1), "table.include.list", settings.schema() + ".outbox_event",
						"poll.interval.ms", String.valueOf(this.pollIntervalMillis)));
		this.worker.start(this::slotActive);
	}

	@Override
	public void close() {
		if (this.worker != null) {
			this.worker.close();
		}
		super.close();
		if (this.name != null) {
			dropLeftoverSlots();
		}
	}

	private boolean slotActive() {
		return !query("SELECT slot_name FROM pg_replication_slots WHERE active AND slot_name = '" + this.name + "'")
			.isEmpty();
	}

	private void dropLeftoverSlots() {
		for (String slot : query("SELECT slot_name FROM pg_replication_slots WHERE NOT active AND slot_name LIKE '"
				+ PREFIX + "%'")) {
			query("SELECT pg_drop_replication_slot('" + slot + "')::text");
		}
		for (String publication : query("SELECT pubname FROM pg_publication WHERE pubname LIKE '" + PREFIX + "%'")) {
			execute("DROP PUBLICATION IF EXISTS " + publication);
		}
	}

	private List<String> query(String sql) {
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, this.username, "");
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(sql)) {
			List<String> values = new ArrayList<>();
			while (rows.next()) {
				values.add(rows.getString(1));
			}
			return values;
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

	private void execute(String sql) {
		try (Connection connection = DriverManager.getConnection(this.jdbcUrl, this.username, "");
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

}
