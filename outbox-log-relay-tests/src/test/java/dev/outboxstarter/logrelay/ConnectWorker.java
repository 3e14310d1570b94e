package dev.outboxstarter.logrelay;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka Connect worker in standalone mode, in a child process, as an operator runs one: Kafka
 * Connect and Debezium's PostgreSQL connector from {@code connect-worker/pom.xml}, the outbox's
 * transform jar, and one connector per database, each configured by the shipped
 * {@code connectors/postgresql.json} with the test's database, table, replication slot and publication
 * put in. Its offsets are kept in a file that outlives the process, so a worker started again resumes
 * where the last one committed.
 */
public final class ConnectWorker implements AutoCloseable {

	private static final ObjectMapper json = new ObjectMapper();

	/** How long a stopped worker has to exit before it is killed. */
	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

	private final Path directory;

	private final List<String> connectorNames;

	private final int restPort;

	private final List<String> command;

	private Process process;

	private ConnectWorker(Path directory, List<String> connectorNames, int restPort, List<String> command) {
		this.directory = directory;
		this.connectorNames = connectorNames;
		this.restPort = restPort;
		this.command = command;
	}

	/**
	 * Prepares a worker for a connector of the tests, not started yet: the shipped PostgreSQL connector
	 * JSON with the test database, its table and names of this run put in.
	 * @param bootstrapServers the Kafka broker it produces to and keeps its state in
	 * @param database the database name
	 * @param table the outbox table it reads, in schema {@code public}
	 * @param name a name unique to this run: the connector's, the slot's and the publication's
	 * @return the worker, stopped
	 */
	static ConnectWorker prepare(String bootstrapServers, String database, String table, String name) {
		return prepare(bootstrapServers, table, Map.of(name, database));
	}

	/**
	 * Prepares one worker for several connectors of the tests, not started yet, as an operator runs one
	 * connector per database: each the shipped PostgreSQL connector JSON with its database, the table and
	 * its own names put in.
	 * @param bootstrapServers the Kafka broker they produce to and keep their state in
	 * @param table the outbox table each reads in its database, in schema {@code public}
	 * @param connectors each connector's name, unique to this run (also its slot's, its publication's and
	 * its topic prefix), and the database it reads, in the order they are configured
	 * @return the worker, stopped
	 */
	static ConnectWorker prepare(String bootstrapServers, String table, Map<String, String> connectors) {
		Map<String, Map<String, String>> overrides = new LinkedHashMap<>();
		connectors.forEach((name, database) -> overrides.put(name,
				Map.of("database.hostname", "127.0.0.1", "database.user", "postgres", "database.password", "",
						"database.dbname", database, "table.include.list", "public." + table,
						// Debezium's default, 500 ms between reads of the log, would add up to half a
						// second per event.
						"poll.interval.ms", "50")));
		return prepare(Paths.get(System.getProperty("outbox.connect-worker.classpath")),
				Paths.get(System.getProperty("outbox.connectors.directory"), "postgresql.json"), bootstrapServers,
				overrides);
	}

	/**
	 * Prepares a worker for one connector, not started yet.
	 * @param workerClasspath a file with the worker's classpath (Kafka Connect and Debezium), as
	 * {@code dependency:build-classpath} writes it; the outbox's transform is added
	 * @param connectorJson the connector configuration to start from, a shipped one
	 * @param bootstrapServers the Kafka broker it produces to
	 * @param name a name unique to this run: the connector's, the slot's, the publication's and the topic
	 * prefix
	 * @param overrides settings that replace the connector configuration's
	 * @return the worker, stopped
	 */
	public static ConnectWorker prepare(Path workerClasspath, Path connectorJson, String bootstrapServers, String name,
			Map<String, String> overrides) {
		return prepare(workerClasspath, connectorJson, bootstrapServers, Map.of(name, overrides));
	}

	/**
	 * Prepares a worker for connectors made from one connector configuration, not started yet.
	 * @param workerClasspath a file with the worker's classpath (Kafka Connect and Debezium), as
	 * {@code dependency:build-classpath} writes it; the outbox's transform is added
	 * @param connectorJson the connector configuration each starts from, a shipped one
	 * @param bootstrapServers the Kafka broker they produce to
	 * @param connectors by each connector's name (unique to this run: also its slot's, its publication's
	 * and its topic prefix), the settings that replace the connector configuration's; the first name
	 * names the worker's folder
	 * @return the worker, stopped
	 */
	private static ConnectWorker prepare(Path workerClasspath, Path connectorJson, String bootstrapServers,
			Map<String, Map<String, String>> connectors) {
		try {
			String workerName = connectors.keySet().iterator().next();
			// Under the build's target folder: the worker's log stays there for a failed test to be read.
			Path directory = Files.createDirectories(Paths.get("target", "connect-workers", workerName))
				.toAbsolutePath();
			int restPort = freePort();
			Path workerProperties = directory.resolve("worker.properties");
			Files.writeString(workerProperties, String.join("\n", "bootstrap.servers=" + bootstrapServers,
					"offset.storage.file.filename=" + directory.resolve("offsets.dat"),
					// A worker killed between two flushes republishes what it sent since the last one.
					"offset.flush.interval.ms=1000", "listeners=http://127.0.0.1:" + restPort,
					"key.converter=org.apache.kafka.connect.storage.StringConverter",
					"value.converter=org.apache.kafka.connect.storage.StringConverter", ""));
			List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
				.toString(), "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
					"-Dorg.slf4j.simpleLogger.showDateTime=true", "-cp",
					Files.readString(workerClasspath).trim() + File.pathSeparator + transformLocation(),
					"org.apache.kafka.connect.cli.ConnectStandalone", workerProperties.toString()));
			for (Map.Entry<String, Map<String, String>> entry : connectors.entrySet()) {
				String name = entry.getKey();
				ObjectNode connector = (ObjectNode) json.readTree(connectorJson.toFile());
				connector.put("name", name);
				ObjectNode config = (ObjectNode) connector.get("config");
				config.put("slot.name", name);
				config.put("publication.name", name);
				config.put("topic.prefix", name);
				entry.getValue().forEach(config::put);
				Path connectorFile = directory.resolve(name + ".json");
				Files.writeString(connectorFile, json.writeValueAsString(connector));
				command.add(connectorFile.toString());
			}
			return new ConnectWorker(directory, List.copyOf(connectors.keySet()), restPort, command);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Where this build put the outbox's transform: its jar, or its classes folder.
	 */
	private static String transformLocation() {
		String resource = "dev/outboxstarter/kafka/connect/ToOutboxMessage.class";
		URL url = Objects.requireNonNull(ConnectWorker.class.getClassLoader().getResource(resource),
				"outbox-kafka-connect is not on the test classpath");
		String location = url.toString();
		if (location.startsWith("jar:file:")) {
			return Paths.get(URI.create(location.substring(4, location.indexOf("!/")))).toString();
		}
		return Paths.get(URI.create(location.substring(0, location.length() - resource.length()))).toString();
	}

	/**
	 * Starts the worker (again) and waits until each connector's task runs and the database says their
	 * replication slots are read.
	 * @param slotActive whether the connectors' replication slots are in use
	 */
	public synchronized void start(BooleanSupplier slotActive) {
		try {
			this.process = new ProcessBuilder(this.command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		await("connectors " + this.connectorNames + " running (log: " + log() + ")").atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.connectorNames.stream().allMatch(this::taskRunning) && slotActive.getAsBoolean());
	}

	/**
	 * Kills the worker with SIGKILL: no offset flush, no goodbye to the broker or the database.
	 */
	public synchronized void kill() {
		this.process.destroyForcibly();
		waitForExit();
	}

	/**
	 * Stops the worker as an operator would (SIGTERM): it flushes its offsets first. One that has not
	 * exited after {@link #STOP_TIMEOUT} is killed: Kafka Connect's shutdown hook can wait for ever for
	 * its REST server when Jetty's own shutdown thread stopped that server first (seen with Connect
	 * 4.1's worker), and its offsets are flushed every second meanwhile.
	 */
	public synchronized void stop() {
		this.process.destroy();
		if (!waitForExit(STOP_TIMEOUT)) {
			this.process.destroyForcibly();
			waitForExit();
		}
	}

	public boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	public Path log() {
		return this.directory.resolve("worker.log");
	}

	private void waitForExit() {
		try {
			this.process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private boolean waitForExit(Duration timeout) {
		try {
			return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private boolean taskRunning(String connectorName) {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("The Connect worker exited with " + this.process.exitValue() + ": see "
					+ log());
		}
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.restPort + "/connectors/"
						+ connectorName + "/status")).timeout(Duration.ofSeconds(5)).build(),
						HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				return false;
			}
			JsonNode status = json.readTree(response.body());
			JsonNode tasks = status.path("tasks");
			if (tasks.size() > 0 && "FAILED".equals(tasks.get(0).path("state").asText())) {
				throw new IllegalStateException("The task of connector " + connectorName + " failed: "
						+ tasks.get(0).path("trace").asText());
			}
			return "RUNNING".equals(status.path("connector").path("state").asText()) && tasks.size() > 0
					&& "RUNNING".equals(tasks.get(0).path("state").asText());
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public void close() {
		if (isRunning()) {
			stop();
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
