package dev.outboxstarter.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.FileSystemUtils;

import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus server (Debian's {@code prometheus} package, installed by {@code ./test-all}) in a
 * process of its own, on a free port, with its configuration and data under a directory of the
 * caller's: it scrapes one target every second and evaluates its rules every second. Its HTTP API
 * answers what it scraped and what its alerts are doing. {@link #close()} stops it, and so does a
 * shutdown hook of this JVM if the test does not.
 */
public final class PrometheusServer implements AutoCloseable {

	/**
	 * The job name of the one scraped target.
	 */
	public static final String JOB = "outbox-it";

	private static final Path PROMETHEUS = Path.of(System.getProperty("outbox.prometheus", "/usr/bin/prometheus"));

	private static final Path PROMTOOL = Path.of(System.getProperty("outbox.promtool", "/usr/bin/promtool"));

	private static final JsonMapper json = new JsonMapper();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final int port;

	private final Process process;

	private final Thread shutdownHook;

	private PrometheusServer(int port, Process process) {
		this.port = port;
		this.process = process;
		this.shutdownHook = new Thread(process::destroyForcibly, "prometheus-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts Prometheus and waits until it is ready.
	 * @param directory where its configuration, data and log go (emptied first)
	 * @param target {@code host:port} of the application to scrape
	 * @param metricsPath the path of its Prometheus endpoint
	 * @param ruleFile the rules to load
	 * @return the running server
	 */
	public static PrometheusServer start(Path directory, String target, String metricsPath, Path ruleFile) {
		requireExecutable(PROMETHEUS);
		try {
			FileSystemUtils.deleteRecursively(directory);
			Files.createDirectories(directory);
			Path config = directory.resolve("prometheus.yml");
			Files.writeString(config, """
					global:
					  scrape_interval: 1s
					  scrape_timeout: 1s
					  evaluation_interval: 1s
					rule_files:
					  - '%s'
					scrape_configs:
					  - job_name: '%s'
					    metrics_path: '%s'
					    static_configs:
					      - targets: ['%s']
					""".formatted(ruleFile.toAbsolutePath(), JOB, metricsPath, target));
			int port = freePort();
			Process process = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
					"--storage.tsdb.path=" + directory.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("prometheus.log").toFile())
				.start();
			PrometheusServer server = new PrometheusServer(port, process);
			await("Prometheus ready on port " + port + " (log: " + directory.resolve("prometheus.log") + ")")
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> {
					if (!process.isAlive()) {
						throw new IllegalStateException("Prometheus exited with " + process.exitValue()
								+ ": " + Files.readString(directory.resolve("prometheus.log")));
					}
					return server.isReady();
				});
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Runs {@code promtool} with the given arguments.
	 * @param arguments its arguments, e.g. {@code check rules <file>}
	 * @return its exit code and output (standard output and error together)
	 */
	public static Promtool promtool(String... arguments) {
		requireExecutable(PROMTOOL);
		List<String> command = new ArrayList<>();
		command.add(PROMTOOL.toString());
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("promtool did not finish within 60 s: " + command);
			}
			return new Promtool(process.exitValue(), output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * {@code GET /api/v1/rules}: the loaded rule groups, each alert with its state.
	 * @return the {@code data} of the answer
	 */
	public JsonNode rules() {
		return get("/api/v1/rules");
	}

	/**
	 * {@code GET /api/v1/targets}: the scraped target, its health and last error.
	 * @return the {@code data} of the answer
	 */
	public JsonNode targets() {
		return get("/api/v1/targets");
	}

	/**
	 * {@code GET /api/v1/query}: an instant query.
	 * @param promql the query
	 * @return the {@code data} of the answer
	 */
	public JsonNode query(String promql) {
		return get("/api/v1/query?query=" + encode(promql));
	}

	/**
	 * The names of every metric scraped from the target.
	 * @return the names
	 */
	public List<String> scrapedMetricNames() {
		List<String> names = new ArrayList<>();
		get("/api/v1/label/__name__/values?match[]=" + encode("{job=\"" + JOB + "\"}"))
			.forEach((name) -> names.add(name.asString()));
		return names;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
	}

	private boolean isReady() {
		try {
			return send("/-/ready").statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private JsonNode get(String pathAndQuery) {
		try {
			HttpResponse<String> response = send(pathAndQuery);
			JsonNode body = json.readTree(response.body());
			if (response.statusCode() != 200 || !"success".equals(body.path("status").asString())) {
				throw new IllegalStateException("Prometheus answered " + pathAndQuery + " with "
						+ response.statusCode() + ": " + response.body());
			}
			return body.get("data");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private HttpResponse<String> send(String pathAndQuery) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + pathAndQuery))
			.timeout(Duration.ofSeconds(5))
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static void requireExecutable(Path binary) {
		if (!Files.isExecutable(binary)) {
			throw new IllegalStateException(binary + " is missing: install Debian's prometheus package "
					+ "(apt-get install prometheus; ./test-all does), or point -Doutbox.prometheus and "
					+ "-Doutbox.promtool at the binaries");
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/**
	 * What a {@code promtool} run ended with.
	 * @param exitCode its exit code
	 * @param output what it printed
	 */
	public record Promtool(int exitCode, String output) {

	}

}
