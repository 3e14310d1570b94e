package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.tracing.test.autoconfigure.AutoConfigureTracing;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator sees through a broker outage: failed attempts and a growing backlog in the
 * metrics, health DOWN once the oldest pending event is older than allowed, one warning in the log;
 * and after recovery, the backlog drained by the relay, health UP again, one line in the log, and
 * every message still in the trace of the request that raised its event.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + BrokerOutageOperationsIntegrationTests.TOPIC,
				"outbox.table-name=" + BrokerOutageOperationsIntegrationTests.TABLE, "outbox.publish-timeout=2s",
				"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=200ms", "outbox.retry.max-delay=500ms",
				"outbox.retry.max-attempts=1", "outbox.backlog.refresh-interval=100ms",
				"outbox.health.max-oldest-pending-age=1s", "management.tracing.sampling.probability=1.0",
				"spring.kafka.producer.properties.max.block.ms=500",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200" })
@AutoConfigureTracing
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class BrokerOutageOperationsIntegrationTests {

	static final String TOPIC = "it-outage-operations";

	static final String TABLE = "outbox_it_outage_operations";

	private static final TcpForwarder broker = TestKafka.unreachableAddress();

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private HealthIndicator outboxHealthIndicator;

	@Autowired
	private Tracer tracer;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", broker::address);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void outageShowsInMetricsHealthAndOneWarningAndRecoveryDrainsTheBacklogInTheRequestsTrace(CapturedOutput output) {
		String prefix = "outage-" + UUID.randomUUID();
		Span request = this.tracer.nextSpan().name("POST /orders").start();
		try (Tracer.SpanInScope scope = this.tracer.withSpan(request)) {
			for (int i = 0; i < 5; i++) {
				this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1));
			}
		}
		finally {
			request.end();
		}
		String traceId = request.context().traceId();

		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			assertThat(count("outbox.events.failed")).as("failed attempts").isGreaterThanOrEqualTo(5);
			assertThat(gauge("outbox.backlog.pending")).isEqualTo(5);
			assertThat(gauge("outbox.backlog.oldest.age")).isGreaterThan(1);
			assertThat(this.outboxHealthIndicator.health(true).getStatus()).isEqualTo(Status.DOWN);
		});
		assertThat(count("outbox.events.captured")).isEqualTo(5);
		assertThat(count("outbox.events.published")).isZero();
		assertThat(count("outbox.events.dead")).isZero();
		assertThat(this.outboxHealthIndicator.health(true).getDetails()).containsEntry("pending", 5L)
			.containsEntry("unavailableTransports", Set.of("kafka"))
			.containsKey("problems");
		assertThat(gauge("outbox.transports.unavailable")).isEqualTo(1);
		assertThat(gauge("outbox.destinations.paused")).isZero();
		// Three times as many failed attempts as events, each of the fast path or the relay.
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> count("outbox.events.failed") >= 15);
		assertThat(outboxLines(output, "WARN")).singleElement(as(InstanceOfAssertFactories.STRING))
			.contains("Outbox transport 'kafka' is unavailable (org.apache.kafka.common.errors.TimeoutException: ")
			.contains("logged once");
		assertThat(outboxLines(output, "ERROR")).isEmpty();
		assertThat(output.getAll()).as("no error from Spring Kafka per failed send")
			.doesNotContain("LoggingProducerListener");

		broker.open();
		try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
			List<Received> received = await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> topic.poll().stream().filter((record) -> record.value().contains(prefix)).toList(),
						(records) -> records.size() >= 5);
			assertThat(received).allSatisfy((record) -> {
				String traceparent = record.header("traceparent");
				assertThat(traceparent).as("traceparent").isNotNull();
				String[] parts = traceparent.split("-");
				assertThat(parts[1]).as("trace id").isEqualTo(traceId);
				assertThat(parts[2]).as("the publishing span, not the request's").isNotEqualTo(request.context().spanId());
			});
		}
		finally {
			broker.close();
		}
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			assertThat(gauge("outbox.backlog.pending")).isZero();
			assertThat(gauge("outbox.backlog.oldest.age")).isZero();
			assertThat(this.outboxHealthIndicator.health(true).getStatus()).isEqualTo(Status.UP);
		});
		assertThat(gauge("outbox.transports.unavailable")).isZero();
		assertThat(this.outboxHealthIndicator.health(true).getDetails()).doesNotContainKey("unavailableTransports");
		assertThat(this.meters.get("outbox.events.published").tags("transport", "kafka", "path", "relay").counter().count())
			.isEqualTo(5);
		assertThat(this.meters.get("outbox.publish.latency").tags("transport", "kafka", "path", "relay").timer().count())
			.isEqualTo(5);
		assertThat(this.meters.get("outbox.relay.batch.size").summary().count()).isPositive();
		assertThat(outboxLines(output, "WARN")).hasSize(1);
		assertThat(outboxLines(output, "INFO")).filteredOn((line) -> line.contains("takes messages again"))
			.singleElement(as(InstanceOfAssertFactories.STRING))
			.containsPattern("Outbox transport 'kafka' takes messages again after being unavailable for PT[0-9.]+S");
	}

	/** The outbox's own log lines at a level, its engine's logger names written out or abbreviated. */
	private static List<String> outboxLines(CapturedOutput output, String level) {
		return lines(output, level).stream()
			.filter((line) -> line.contains("dev.outboxstarter.core.") || line.contains("d.o.core.")
					|| line.contains("dev.outboxstarter.internal.") || line.contains("d.o.internal."))
			.toList();
	}

	private static List<String> lines(CapturedOutput output, String level) {
		return output.getAll().lines().filter((line) -> line.contains(" " + level + " ")).toList();
	}

	private double count(String counter) {
		return this.meters.get(counter).tag("transport", "kafka").counters().stream().mapToDouble((c) -> c.count()).sum();
	}

	private double gauge(String name) {
		return this.meters.get(name).gauge().value();
	}

}
