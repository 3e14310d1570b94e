package dev.outboxstarter.schemaregistry.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A real Apicurio Registry with in-memory storage, in a JVM process of its own: the application that
 * this module's build makes from the registry's published classes ({@code registry-app/pom.xml}).
 * One registry serves every test of a JVM ({@link #shared()}); tests keep apart by the subjects
 * (topics) they use. Each start begins with an empty registry.
 */
public final class SchemaRegistryProcess implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	/**
	 * A small heap and the quick start-up of the client compiler: a test registry holds a few schemas
	 * and answers few requests.
	 */
	private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1");

	private static SchemaRegistryProcess shared;

	private final int port;

	private final Path log;

	private final Process process;

	private final Thread shutdownHook;

	private SchemaRegistryProcess(int port, Path log, Process process) {
		this.port = port;
		this.log = log;
		this.process = process;
		this.shutdownHook = new Thread(this::destroy, "schema-registry-process-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * The registry of this JVM, started on first use and stopped when the JVM exits.
	 * @return the running registry
	 */
	public static synchronized SchemaRegistryProcess shared() {
		if (shared == null || !shared.isRunning()) {
			shared = start();
		}
		return shared;
	}

	/**
	 * Starts a registry of its own on a free port and waits until it is ready.
	 * @return the running registry; {@link #close()} stops it
	 */
	public static SchemaRegistryProcess start() {
		Path application = application();
		int port = freePort();
		Path log = application.getParent().getParent().resolve("registry-" + port + ".log");
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JVM_OPTIONS);
		// Fewer database connections than the registry's production default of 20: they are opened at
		// start-up, and one test registry needs few.
		command.add("-Dquarkus.datasource.jdbc.initial-size=2");
		command.add("-Dquarkus.datasource.jdbc.min-size=2");
		// The tests reach it on the loopback address only; the registry's default is every interface.
		command.add("-Dquarkus.http.host=127.0.0.1");
		command.add("-jar");
		command.add(application.toString());
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
		builder.environment().put("HTTP_PORT", Integer.toString(port));
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the schema registry " + application, ex);
		}
		SchemaRegistryProcess registry = new SchemaRegistryProcess(port, log, process);
		try {
			registry.awaitReady();
			return registry;
		}
		catch (RuntimeException | Error ex) {
			registry.close();
			throw ex;
		}
	}

	/**
	 * The registry's base URL.
	 * @return {@code http://127.0.0.1:port}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.port;
	}

	/**
	 * The URL of Apicurio Registry's own API (version 2), the one the registry's serializers and
	 * client use ({@code apicurio.registry.url}).
	 * @return the API's URL
	 */
	public String registryApiUrl() {
		return url() + "/apis/registry/v2";
	}

	/**
	 * The URL of the registry's Confluent-compatible API (version 7), the one Confluent's serializers
	 * use ({@code schema.registry.url}).
	 * @return the API's URL
	 */
	public String confluentCompatibleApiUrl() {
		return url() + "/apis/ccompat/v7";
	}

	/**
	 * Whether the registry process is alive.
	 * @return whether it runs
	 */
	public boolean isRunning() {
		return this.process.isAlive();
	}

	@Override
	public void close() {
		destroy();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// Shutting down already: the hook runs or has run.
		}
	}

	private void destroy() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	private void awaitReady() {
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		HttpRequest ready = HttpRequest.newBuilder(URI.create(url() + "/health/ready"))
			.timeout(Duration.ofSeconds(5))
			.build();
		await("schema registry on " + url() + " to be ready; its output: " + this.log).atMost(START_TIMEOUT)
			.pollInterval(POLL_INTERVAL)
			.failFast("the schema registry exited while starting; its output: " + this.log,
					() -> !this.process.isAlive())
			.ignoreExceptionsInstanceOf(IOException.class)
			.until(() -> client.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
	}

	private static Path application() {
		Properties properties = new Properties();
		try (InputStream in = SchemaRegistryProcess.class.getResourceAsStream("registry-app.properties")) {
			properties.load(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Path application = Path.of(properties.getProperty("application"));
		if (!Files.isRegularFile(application)) {
			throw new IllegalStateException("No schema registry application at " + application
					+ ": build the outbox-schema-registry-server module (without -DskipTests), which builds it from"
					+ " registry-app/pom.xml");
		}
		return application;
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
