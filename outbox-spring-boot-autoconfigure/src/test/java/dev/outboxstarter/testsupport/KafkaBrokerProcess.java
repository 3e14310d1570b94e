package dev.outboxstarter.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka broker (KRaft, broker and controller in one) in a JVM process of its own, started from
 * the Kafka jars on the test class path. It can be stopped and started again on the same ports and log
 * directory, so clients see the very broker go away and come back. Every process it starts is
 * destroyed on {@link #close()} and, failing that, by a shutdown hook of this JVM.
 */
public final class KafkaBrokerProcess implements AutoCloseable {

	/**
	 * For tests: a small heap, and the quick start-up of the client compiler, since a test broker
	 * handles little traffic.
	 */
	public static final List<String> TEST_JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1");

	private final Path directory;

	private final int port;

	private final int controllerPort;

	private final Path config;

	private final Path log;

	private final Thread shutdownHook;

	private volatile Process process;

	private final List<String> jvmOptions;

	private KafkaBrokerProcess(Path directory, Path log, List<String> jvmOptions) {
		this.directory = directory;
		this.jvmOptions = List.copyOf(jvmOptions);
		int[] ports = twoFreePorts();
		this.port = ports[0];
		this.controllerPort = ports[1];
		this.config = directory.resolve("server.properties");
		this.log = log;
		this.shutdownHook = new Thread(this::destroyForcibly, "kafka-broker-process-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Formats the storage of a new broker in a temporary directory and starts it with
	 * {@link #TEST_JVM_OPTIONS}.
	 * @param log where the broker's output goes (appended)
	 * @return the running broker
	 */
	public static KafkaBrokerProcess start(Path log) {
		return start(log, TEST_JVM_OPTIONS);
	}

	/**
	 * Formats the storage of a new broker in a temporary directory and starts it.
	 * @param log where the broker's output goes (appended)
	 * @param jvmOptions the broker JVM's options, e.g. {@link #TEST_JVM_OPTIONS}
	 * @return the running broker
	 */
	public static KafkaBrokerProcess start(Path log, List<String> jvmOptions) {
		KafkaBrokerProcess broker;
		try {
			Files.createDirectories(log.toAbsolutePath().getParent());
			broker = new KafkaBrokerProcess(Files.createTempDirectory("kafka-broker-process"), log, jvmOptions);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			broker.writeConfig();
			broker.format();
			broker.startAgain();
			return broker;
		}
		catch (RuntimeException | Error ex) {
			broker.close();
			throw ex;
		}
	}

	/**
	 * The address clients connect to.
	 * @return {@code 127.0.0.1:port}
	 */
	public String bootstrapServers() {
		return "127.0.0.1:" + this.port;
	}

	/**
	 * Whether the broker process is alive.
	 * @return whether it runs
	 */
	public boolean isRunning() {
		Process current = this.process;
		return current != null && current.isAlive();
	}

	/**
	 * Starts the broker process on the same ports and log directory, and waits until it answers.
	 */
	public synchronized void startAgain() {
		if (isRunning()) {
			return;
		}
		this.process = launch(List.of("kafka.Kafka", this.config.toString()), this.jvmOptions);
		await("Kafka broker on " + bootstrapServers() + " to answer").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(this::answers);
	}

	/**
	 * Stops the broker gracefully (SIGTERM) and waits until the process has exited.
	 */
	public synchronized void stop() {
		Process current = this.process;
		if (current == null) {
			return;
		}
		// A paused broker would not act on SIGTERM.
		ProcessSignals.thawQuietly(current.pid());
		current.destroy();
		try {
			if (!current.waitFor(30, TimeUnit.SECONDS)) {
				current.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			current.destroyForcibly();
		}
		this.process = null;
	}

	/**
	 * Stops the broker process without ending it (SIGSTOP): clients stay connected, their requests are
	 * accepted by the system and answered by nobody until {@link #resume()}.
	 */
	public synchronized void pause() {
		ProcessSignals.freeze(this.process.pid());
	}

	/**
	 * Lets a paused broker run again (SIGCONT): it answers the requests that waited.
	 */
	public synchronized void resume() {
		ProcessSignals.thaw(this.process.pid());
	}

	/**
	 * Creates a topic.
	 * @param name its name
	 * @param partitions its partitions
	 */
	public void createTopic(String name, int partitions) {
		try (Admin admin = admin()) {
			admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not create topic " + name, ex);
		}
	}

	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// Shutting down already.
		}
		deleteQuietly(this.directory);
	}

	private void destroyForcibly() {
		Process current = this.process;
		if (current != null) {
			current.destroyForcibly();
		}
	}

	private boolean answers() {
		if (!isRunning()) {
			throw new IllegalStateException("Kafka broker process exited with " + this.process.exitValue()
					+ "; see " + this.log);
		}
		try (Admin admin = admin()) {
			return !admin.describeCluster(new DescribeClusterOptions().timeoutMs(1000))
				.nodes()
				.get(2, TimeUnit.SECONDS)
				.isEmpty();
		}
		catch (Exception ex) {
			return false;
		}
	}

	private Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				10000));
	}

	private void writeConfig() {
		Properties properties = new Properties();
		properties.put("process.roles", "broker,controller");
		properties.put("node.id", "1");
		properties.put("controller.quorum.voters", "1@127.0.0.1:" + this.controllerPort);
		properties.put("listeners", "PLAINTEXT://127.0.0.1:" + this.port + ",CONTROLLER://127.0.0.1:" + this.controllerPort);
		properties.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + this.port);
		properties.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
		properties.put("inter.broker.listener.name", "PLAINTEXT");
		properties.put("controller.listener.names", "CONTROLLER");
		properties.put("offsets.topic.replication.factor", "1");
		properties.put("offsets.topic.num.partitions", "1");
		properties.put("transaction.state.log.replication.factor", "1");
		properties.put("transaction.state.log.min.isr", "1");
		properties.put("share.coordinator.state.topic.replication.factor", "1");
		properties.put("share.coordinator.state.topic.min.isr", "1");
		properties.put("group.initial.rebalance.delay.ms", "0");
		properties.put("num.partitions", "3");
		properties.put("log.dirs", this.directory.resolve("logs").toString());
		try (var out = Files.newBufferedWriter(this.config)) {
			properties.store(out, "KafkaBrokerProcess");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void format() {
		Process format = launch(List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c",
				this.config.toString()), TEST_JVM_OPTIONS);
		try {
			if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
				format.destroyForcibly();
				throw new IllegalStateException("Formatting the Kafka storage failed; see " + this.log);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			format.destroyForcibly();
			throw new IllegalStateException(ex);
		}
	}

	private Process launch(List<String> mainAndArguments, List<String> jvmOptions) {
		List<String> command = new ArrayList<>();
		command.add(FaultClassPath.javaCommand());
		command.addAll(jvmOptions);
		command.add("-cp");
		command.add(FaultClassPath.jars());
		command.addAll(mainAndArguments);
		try {
			return new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Two free ports, distinct, that the broker keeps across restarts (see {@link FreePorts}).
	 */
	private static int[] twoFreePorts() {
		return new int[] { FreePorts.take(), FreePorts.take() };
	}

	private static void deleteQuietly(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Left in the temporary directory.
		}
	}

}
