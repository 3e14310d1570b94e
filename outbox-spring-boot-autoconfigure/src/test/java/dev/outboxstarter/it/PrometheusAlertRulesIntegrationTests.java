package dev.outboxstarter.it;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.PrometheusServer;
import dev.outboxstarter.testsupport.PrometheusServer.Promtool;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The alert rules and the Grafana dashboard shipped in {@code docs/operations/}, against a real
 * Prometheus scraping an application with the starter every second: the rules pass
 * {@code promtool check rules} as shipped and their unit tests at production thresholds; loaded with
 * thresholds and {@code for} durations of seconds, the backlog-age and transport-unavailable alerts go
 * from inactive through pending to firing while the Kafka broker is unreachable and back to inactive
 * once it is reachable again, while the other alerts stay inactive; and every metric the dashboard
 * and the rules read is in the scrape, every dashboard query runs.
 */
@SpringBootTest(classes = OrdersTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "test.topic=" + PrometheusAlertRulesIntegrationTests.TOPIC,
				"outbox.table-name=" + PrometheusAlertRulesIntegrationTests.TABLE, "outbox.publish-timeout=2s",
				"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=200ms", "outbox.retry.max-delay=500ms",
				"outbox.backlog.refresh-interval=100ms", "management.endpoints.web.exposure.include=prometheus",
				// Prometheus before 2.43 (Debian's is 2.42) drops every scrape in which a _count carries an
				// exemplar, which Micrometer adds for sampled traces (see docs/operations.md).
				"management.tracing.exemplars.include=none",
				"spring.kafka.producer.properties.max.block.ms=500",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200" })
@DirtiesContext
class PrometheusAlertRulesIntegrationTests {

	static final String TOPIC = "it-prometheus-alerts";

	static final String TABLE = "outbox_it_prometheus_alerts";

	private static final Path PROMETHEUS_DIRECTORY = Path.of("target", "prometheus-alerts").toAbsolutePath();

	private static final Path UNIT_TESTS = Path.of("src", "test", "resources", "prometheus", "outbox-alerts-tests.yml");

	private static final String BACKLOG_TOO_OLD = "OutboxBacklogTooOld";

	private static final String TRANSPORT_UNAVAILABLE = "OutboxTransportUnavailable";

	/** Thresholds of seconds for the copy Prometheus loads; the others are zero already. */
	private static final Map<String, String> TEST_THRESHOLDS = Map.of(BACKLOG_TOO_OLD, "2", "OutboxRelayNotRunning",
			"10");

	private static final Duration TEST_FOR = Duration.ofSeconds(2);

	private static final TcpForwarder broker = TestKafka.unreachableAddress();

	private static PrometheusServer prometheus;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
	}

	@LocalServerPort
	private int port;

	@Autowired
	private OrderService orders;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", broker::address);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@BeforeEach
	void startPrometheus() {
		if (prometheus == null) {
			Path rules = ShippedAlertRules.load()
				.writeForTest(PROMETHEUS_DIRECTORY.resolveSibling("prometheus-alerts-rules.yml"), TEST_FOR,
						TEST_THRESHOLDS);
			prometheus = PrometheusServer.start(PROMETHEUS_DIRECTORY, "127.0.0.1:" + this.port, "/actuator/prometheus",
					rules);
		}
	}

	@AfterAll
	static void stopPrometheusAndBroker() {
		if (prometheus != null) {
			prometheus.close();
			prometheus = null;
		}
		broker.close();
	}

	@Test
	void shippedRulesPassPromtoolsChecksAndUnitTestsAndAllLoad() {
		Promtool check = PrometheusServer.promtool("check", "rules", ShippedAlertRules.FILE.toString());
		assertThat(check.exitCode()).as(check.output()).isZero();
		assertThat(check.output()).contains("SUCCESS: 5 rules found");
		Promtool unitTests = PrometheusServer.promtool("test", "rules", UNIT_TESTS.toString());
		assertThat(unitTests.exitCode()).as(unitTests.output()).isZero();

		List<String> shipped = ShippedAlertRules.load().alertNames();
		assertThat(shipped).containsExactlyInAnyOrder(BACKLOG_TOO_OLD, "OutboxDeadEvents", TRANSPORT_UNAVAILABLE,
				"OutboxDestinationPaused", "OutboxRelayNotRunning");
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
			List<JsonNode> loaded = alertingRules();
			assertThat(loaded).extracting((rule) -> rule.path("name").asString())
				.containsExactlyInAnyOrderElementsOf(shipped);
			assertThat(loaded).allSatisfy((rule) -> {
				assertThat(rule.path("health").asString()).as(rule.toString()).isEqualTo("ok");
				assertThat(rule.path("lastError").asString("")).isEmpty();
			});
		});
	}

	@Test
	void backlogAgeAndTransportAlertsFireDuringABrokerOutageAndResolveAfterIt() {
		AlertTimeline timeline = new AlertTimeline();
		await("the first scrape").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> !prometheus.query("outbox_transports_unavailable").path("result").isEmpty());
		Instant scraped = Instant.now();
		await("the rules evaluated on it").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> timeline.observeEvaluatedAfter(scraped));
		assertThat(timeline.current()).as("every alert before the outage").allSatisfy((name, state) ->
				assertThat(state).as(name).isEqualTo("inactive"));

		String prefix = "alerts-" + UUID.randomUUID();
		for (int i = 0; i < 5; i++) {
			this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1));
		}
		timeline.mark("5 orders committed, the broker unreachable");
		try {
			await("both alerts firing").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> timeline.observe().get(BACKLOG_TOO_OLD).equals("firing")
						&& timeline.current().get(TRANSPORT_UNAVAILABLE).equals("firing"));

			broker.open();
			timeline.mark("broker reachable");
			try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
				await("the backlog delivered").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> {
						timeline.observe();
						return topic.poll().stream().filter((record) -> record.value().contains(prefix)).count() >= 5;
					});
			}
			timeline.mark("5 events received from the topic");
			await("both alerts resolved").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> timeline.observe().get(BACKLOG_TOO_OLD).equals("inactive")
						&& timeline.current().get(TRANSPORT_UNAVAILABLE).equals("inactive"));
		}
		finally {
			System.out.println("Alert states observed through the outage:\n" + timeline);
		}

		JsonNode up = prometheus.query("min_over_time(up{job=\"" + PrometheusServer.JOB + "\"}[5m])").path("result");
		assertThat(up.path(0).path("value").path(1).asString()).as("lowest up of the scrapes: %s", up).isEqualTo("1");
		List<String> throughAnOutage = List.of("inactive", "pending", "firing", "inactive");
		assertThat(timeline.states(BACKLOG_TOO_OLD)).isEqualTo(throughAnOutage);
		assertThat(timeline.states(TRANSPORT_UNAVAILABLE)).isEqualTo(throughAnOutage);
		assertThat(timeline.states("OutboxDeadEvents")).containsExactly("inactive");
		assertThat(timeline.states("OutboxDestinationPaused")).containsExactly("inactive");
		assertThat(timeline.states("OutboxRelayNotRunning")).as("the relay polls through an outage")
			.containsExactly("inactive");
	}

	@Test
	void everyMetricTheDashboardAndTheRulesReadIsScrapedAndEveryDashboardQueryRuns() {
		ShippedDashboard dashboard = ShippedDashboard.load();
		Set<String> read = new TreeSet<>();
		dashboard.panelQueries().forEach((query) -> read.addAll(ShippedDashboard.metricNames(query)));
		dashboard.variableSelectors().forEach((selector) -> read.addAll(ShippedDashboard.metricNames(selector)));
		ShippedAlertRules.load().expressions().forEach((expr) -> read.addAll(ShippedDashboard.metricNames(expr)));
		assertThat(read).as("metric names the dashboard and the rules read")
			.contains("outbox_backlog_pending", "outbox_backlog_oldest_age_seconds", "outbox_backlog_dead",
					"outbox_events_published_total", "outbox_publish_latency_seconds_bucket",
					"outbox_events_failed_total", "outbox_fastpath_queue_size", "outbox_transports_unavailable",
					"outbox_destinations_paused", "outbox_relay_last_run_age_seconds");

		Map<String, String> variables = Map.of("job", PrometheusServer.JOB, "instance", ".*");
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			assertThat(prometheus.scrapedMetricNames()).containsAll(read);
			for (String query : dashboard.panelQueries()) {
				assertThat(prometheus.query(ShippedDashboard.resolve(query, variables)).path("result"))
					.as("result of %s", query)
					.isNotEmpty();
			}
			for (String selector : dashboard.variableSelectors()) {
				assertThat(prometheus.query(ShippedDashboard.resolve(selector, variables)).path("result"))
					.as("series of %s", selector)
					.isNotEmpty();
			}
		});
	}

	private static List<JsonNode> alertingRules() {
		List<JsonNode> rules = new ArrayList<>();
		for (JsonNode group : prometheus.rules().path("groups")) {
			for (JsonNode rule : group.path("rules")) {
				if ("alerting".equals(rule.path("type").asString())) {
					rules.add(rule);
				}
			}
		}
		return rules;
	}

	/**
	 * The states of the alerts as the test sees them through Prometheus's API, with when each began
	 * (counted from the timeline's start), and what the test did in between.
	 */
	private static final class AlertTimeline {

		private final long startedAt = System.nanoTime();

		private final Map<String, List<String>> states = new LinkedHashMap<>();

		private final Map<String, String> current = new LinkedHashMap<>();

		private final List<String> lines = new ArrayList<>();

		/**
		 * Reads the alerts' states and notes the changes.
		 * @return the current state by alert name
		 */
		Map<String, String> observe() {
			for (JsonNode rule : alertingRules()) {
				String name = rule.path("name").asString();
				String state = rule.path("state").asString();
				if (!state.equals(this.current.put(name, state))) {
					this.states.computeIfAbsent(name, (key) -> new ArrayList<>()).add(state);
					this.lines.add(elapsed() + "  " + name + " " + state);
				}
			}
			return current();
		}

		/**
		 * Reads the alerts' states and tells whether every rule was last evaluated after the given time.
		 * @param time the time
		 * @return whether they all were
		 */
		boolean observeEvaluatedAfter(Instant time) {
			observe();
			return alertingRules().stream()
				.allMatch((rule) -> Instant.parse(rule.path("lastEvaluation").asString()).isAfter(time));
		}

		Map<String, String> current() {
			return Map.copyOf(this.current);
		}

		List<String> states(String alert) {
			return this.states.getOrDefault(alert, List.of());
		}

		void mark(String event) {
			this.lines.add(elapsed() + "  -- " + event);
		}

		private String elapsed() {
			return String.format(Locale.ROOT, "+%5.1f s", (System.nanoTime() - this.startedAt) / 1e9);
		}

		@Override
		public String toString() {
			return String.join("\n", this.lines);
		}

	}

}
