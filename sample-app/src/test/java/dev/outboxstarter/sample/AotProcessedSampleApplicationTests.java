package dev.outboxstarter.sample;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged sample, processed by Spring AOT at build time (the {@code process-aot} goal), started
 * in a JVM of its own with {@code -Dspring.aot.enabled=true} on its defaults (H2 and the in-JVM Kafka
 * broker): its context comes from the generated initializers instead of the classpath scan and the
 * auto-configuration conditions, and an order placed and paid over HTTP is delivered to its
 * consumer. And the native-image metadata the processing wrote declares the outbox's SQL resources
 * and the sample's events ({@code OrderEventsBinding}). Run by failsafe once the jar is packaged.
 */
class AotProcessedSampleApplicationTests {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper json = new JsonMapper();

	private Process application;

	private Path log;

	private String baseUrl;

	@BeforeEach
	void onlyOnceTheJarIsPackaged() {
		assumeTrue(System.getProperty("sample.jar") != null,
				"run by failsafe once the sample is packaged and AOT-processed: ./mvnw verify");
	}

	@Test
	void aotProcessedSampleDeliversAnOrderPlacedAndPaidOverHttp() throws Exception {
		Path jar = Path.of(System.getProperty("sample.jar"));
		assertThat(jar).as("the packaged sample (run through ./mvnw verify)").exists();
		int port = freePort();
		this.baseUrl = "http://127.0.0.1:" + port;
		this.log = Files.createTempFile(jar.getParent(), "aot-sample-", ".log");
		String java = ProcessHandle.current().info().command().orElse("java");
		this.application = new ProcessBuilder(java, "-Dspring.aot.enabled=true", "-jar", jar.toString(),
				"--server.port=" + port)
			.redirectErrorStream(true)
			.redirectOutput(this.log.toFile())
			.start();
		try {
			placeAndPayAnOrderAndSeeItDelivered();
		}
		finally {
			this.application.destroy();
			if (!this.application.waitFor(30, TimeUnit.SECONDS)) {
				this.application.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
	}

	@Test
	void nativeImageMetadataDeclaresTheOutboxResourcesAndTheOrderEvents() throws IOException {
		Path metadata = Path.of(System.getProperty("sample.aot-resources"),
				"META-INF/native-image/dev.outboxstarter/sample-app/reachability-metadata.json");
		JsonNode hints = this.json.readTree(metadata.toFile());

		assertThat(hints.get("resources").valueStream().map((resource) -> resource.path("glob").asString()))
			.contains("db/outbox/statements/*.properties", "db/outbox/migration/*/V*__*.sql");
		assertThat(hints.get("reflection")
			.valueStream()
			.map((entry) -> entry.path("type"))
			.filter(JsonNode::isString) // a proxy's type is an object
			.map(JsonNode::asString))
			.contains("dev.outboxstarter.OutboxEvent", "dev.outboxstarter.sample.orders.OrderPlaced",
					"dev.outboxstarter.sample.orders.OrderPaid", "dev.outboxstarter.sample.orders.OrderCancelled");
	}

	private void placeAndPayAnOrderAndSeeItDelivered() throws IOException {
		await("the AOT-processed sample to start (log: " + this.log + ")").atMost(Duration.ofMinutes(2))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(200))
			.until(this::started);
		assertThat(Files.readString(this.log)).contains("Starting AOT-processed SampleApplication");

		HttpResponse<String> placed = post("/orders", "{\"customer\":\"alice\",\"amount\":42.50}");
		assertThat(placed.statusCode()).isEqualTo(201);
		String orderId = this.json.readTree(placed.body()).get("id").asString();
		assertThat(post("/orders/" + orderId + "/pay", "").statusCode()).isEqualTo(200);

		await("OrderPlaced and OrderPaid of order " + orderId + " at the consumer").atMost(Duration.ofSeconds(60))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> {
				JsonNode events = this.json.readTree(get("/events?key=" + orderId).body());
				assertThat(events.get("count").asInt()).isEqualTo(2);
				assertThat(events.get("events").get(0).get("eventType").asString()).isEqualTo("OrderPlaced");
				assertThat(events.get("events").get(1).get("eventType").asString()).isEqualTo("OrderPaid");
				assertThat(events.get("events").get(1).get("payload").get("orderId").asString()).isEqualTo(orderId);
				assertThat(events.get("duplicates").asInt()).isZero();
			});
	}

	private boolean started() throws InterruptedException {
		assertThat(this.application.isAlive()).as("the sample exited; its log: %s", this.log).isTrue();
		try {
			return get("/orders/count").statusCode() == 200;
		}
		catch (IOException ex) {
			// Not listening yet.
			return false;
		}
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create(this.baseUrl + path)).GET().build(),
				BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String path, String body) {
		try {
			return this.http.send(HttpRequest.newBuilder(URI.create(this.baseUrl + path))
				.header("Content-Type", "application/json")
				.POST(BodyPublishers.ofString(body))
				.build(), BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
