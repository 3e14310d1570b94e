package dev.outboxstarter.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.outboxstarter.benchmarks.scenarios.BacklogDrain;
import dev.outboxstarter.benchmarks.scenarios.LargeBacklog;
import dev.outboxstarter.benchmarks.scenarios.Latency;
import dev.outboxstarter.benchmarks.scenarios.RetainedRows;
import dev.outboxstarter.benchmarks.scenarios.ScaleOut;
import dev.outboxstarter.benchmarks.scenarios.SustainedRate;
import dev.outboxstarter.benchmarks.scenarios.WriteCost;
import dev.outboxstarter.testsupport.TcpForwarder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import tools.jackson.databind.json.JsonMapper;

/**
 * One contender running one scenario, in a JVM of its own so that heap, threads and class path
 * concerns of one contender never touch another. Prints its result as one line, {@code RESULT <json>}.
 * Arguments: contender, scenario, broker address, then {@code key=value} parameters.
 */
public final class ContenderProcess {

	static final String RESULT = "RESULT ";

	private ContenderProcess() {
	}

	public static void main(String[] args) throws Exception {
		Contenders which = Contenders.valueOf(args[0]);
		String scenario = args[1];
		String broker = args[2];
		Map<String, String> parameters = new HashMap<>();
		for (int i = 3; i < args.length; i++) {
			String[] pair = args[i].split("=", 2);
			parameters.put(pair[0], pair[1]);
		}
		if (parameters.containsKey("warmupUntilQuiet")) {
			System.setProperty(WriteCost.WARMUP_UNTIL_QUIET_PROPERTY, parameters.get("warmupUntilQuiet"));
		}
		String jdbcUrl = parameters.getOrDefault("jdbcUrl", BenchmarkDatabase.POSTGRESQL.defaultJdbcUrl());
		BenchmarkDatabase database = BenchmarkDatabase.of(jdbcUrl);
		String username = parameters.getOrDefault("username", database.defaultUsername());
		String schema = "bench_" + which.name().toLowerCase(Locale.ROOT);
		prepareSchema(database, jdbcUrl, username, schema);
		long maxBlockMillis = Long.parseLong(parameters.getOrDefault("maxBlockMillis", "2000"));
		String schemaRegistryUrl = parameters.get("schemaRegistryUrl");
		String topic = "bench-" + which.name().toLowerCase(Locale.ROOT).replace('_', '-') + "-" + scenario + "-"
				+ System.currentTimeMillis();
		createTopic(broker, topic);
		Map<String, Object> result;
		try (Contender contender = which.create()) {
			String schemaUrl = database.schemaUrl(jdbcUrl, schema);
			// Publishing straight to the broker; the scenarios of an unreachable broker use a forwarder.
			ContenderSettings direct = new ContenderSettings(schemaUrl, username, schema, broker, topic, maxBlockMillis,
					schemaRegistryUrl);
			switch (scenario) {
				case "write" -> {
					contender.start(direct);
					result = WriteCost.run(contender, direct, Integer.parseInt(parameters.get("transactions")),
							Integer.parseInt(parameters.get("concurrency")), Integer.parseInt(parameters.get("warmup")),
							"order");
				}
				case "drain" -> {
					try (TcpForwarder forwarder = TcpForwarder.onFreePort(broker)) {
						contender.start(new ContenderSettings(schemaUrl, username, schema, forwarder.address(), topic,
								maxBlockMillis, schemaRegistryUrl));
						result = BacklogDrain.run(contender, forwarder, broker, topic,
								Integer.parseInt(parameters.get("events")),
								Duration.ofSeconds(Long.parseLong(parameters.getOrDefault("limitSeconds", "600"))));
					}
				}
				case "outage" -> {
					contender.start(direct);
					result = BacklogDrain.afterRestart(contender, BrokerControl::stopBroker, BrokerControl::startBroker,
							broker, topic, Integer.parseInt(parameters.get("events")),
							Integer.parseInt(parameters.get("warmup")),
							Duration.ofSeconds(Long.parseLong(parameters.getOrDefault("limitSeconds", "600"))));
				}
				case "latency-steady" -> {
					contender.start(direct);
					result = Latency.steady(contender, database, broker, topic, Integer.parseInt(parameters.get("rate")),
							Integer.parseInt(parameters.get("seconds")), Integer.parseInt(parameters.get("warmup")),
							Duration.ofSeconds(Long.parseLong(parameters.get("limitSeconds"))));
				}
				case "latency-burst" -> {
					contender.start(direct);
					result = Latency.burst(contender, database, broker, topic, Integer.parseInt(parameters.get("transactions")),
							Integer.parseInt(parameters.get("warmup")),
							Duration.ofSeconds(Long.parseLong(parameters.get("limitSeconds"))));
				}
				case "scaleout" -> {
					try (TcpForwarder forwarder = TcpForwarder.onFreePort(broker)) {
						ContenderSettings settings = new ContenderSettings(schemaUrl, username, schema, forwarder.address(),
								topic, maxBlockMillis, schemaRegistryUrl);
						contender.start(settings);
						result = ScaleOut.run(contender, which::create, settings,
								Integer.parseInt(parameters.get("instances")), forwarder, broker, topic,
								Integer.parseInt(parameters.get("events")),
								Duration.ofSeconds(Long.parseLong(parameters.getOrDefault("limitSeconds", "600"))));
					}
				}
				case "memory" -> {
					contender.start(direct);
					result = LargeBacklog.run(direct, Integer.parseInt(parameters.get("events")),
							Duration.ofSeconds(Long.parseLong(parameters.get("limitSeconds"))));
				}
				case "retained" -> {
					contender.start(direct);
					result = RetainedRows.run(contender, direct, Integer.parseInt(parameters.get("retained")),
							Integer.parseInt(parameters.get("transactions")), Integer.parseInt(parameters.get("warmup")),
							Integer.parseInt(parameters.get("events")),
							Duration.ofSeconds(Long.parseLong(parameters.getOrDefault("limitSeconds", "600"))),
							BrokerControl::stopBroker, BrokerControl::startBroker);
				}
				case "sustained" -> {
					contender.start(direct);
					result = SustainedRate.run(contender, broker, topic, Integer.parseInt(parameters.get("maxRate")),
							Integer.parseInt(parameters.get("stepSeconds")), Integer.parseInt(parameters.get("warmup")));
				}
				default -> throw new IllegalArgumentException("Unknown scenario '" + scenario
						+ "': use write, drain, outage, latency-steady, latency-burst, scaleout, memory, retained or sustained");
			}
		}
		System.out.println(RESULT + JsonMapper.builder().build().writeValueAsString(result));
		System.out.flush();
		System.exit(0);
	}

	private static void prepareSchema(BenchmarkDatabase database, String jdbcUrl, String username, String schema)
			throws SQLException {
		try (Connection connection = DriverManager.getConnection(jdbcUrl, username, "");
				Statement statement = connection.createStatement()) {
			for (String sql : database.createSchema(schema)) {
				statement.execute(sql);
			}
		}
	}

	private static void createTopic(String broker, String topic) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker))) {
			admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
		}
	}

}
