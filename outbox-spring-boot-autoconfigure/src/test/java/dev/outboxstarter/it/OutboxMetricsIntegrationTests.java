package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.tracing.test.autoconfigure.AutoConfigureTracing;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the broker up, every captured event is counted, published by the fast path, timed from commit
 * to acknowledgement and sent in the trace of the request that raised it; the backlog reads empty.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + OutboxMetricsIntegrationTests.TOPIC,
				"outbox.table-name=" + OutboxMetricsIntegrationTests.TABLE, "outbox.backlog.refresh-interval=100ms",
				"management.tracing.sampling.probability=1.0" })
@AutoConfigureTracing
class OutboxMetricsIntegrationTests {

	static final String TOPIC = "it-metrics";

	static final String TABLE = "outbox_it_metrics";

	private static final int EVENTS = 20;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private PrometheusMeterRegistry prometheus;

	@Autowired
	private Tracer tracer;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void everyEventIsCountedTimedAndSentInTheTraceOfItsRequest() {
		String prefix = "metrics-" + UUID.randomUUID();
		double captured = count("outbox.events.captured");
		double published = count("outbox.events.published");
		long timed = timers().stream().mapToLong(Timer::count).sum();
		Span request = this.tracer.nextSpan().name("POST /orders").start();
		try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
			try (Tracer.SpanInScope scope = this.tracer.withSpan(request)) {
				for (int i = 0; i < EVENTS; i++) {
					this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1));
				}
			}
			finally {
				request.end();
			}
			List<Received> received = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll().stream().filter((record) -> record.value().contains(prefix)).toList(),
						(records) -> records.size() >= EVENTS);
			assertThat(received).allSatisfy((record) -> assertThat(record.header("traceparent"))
				.startsWith("00-" + request.context().traceId() + "-"));
		}

		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
			assertThat(count("outbox.events.published") - published).isEqualTo(EVENTS);
			assertThat(this.meters.get("outbox.backlog.pending").gauge().value()).isZero();
		});
		assertThat(count("outbox.events.captured") - captured).isEqualTo(EVENTS);
		assertThat(this.meters.get("outbox.events.published").tags("transport", "kafka", "path", "fast").counter().count())
			.as("published by the fast path").isEqualTo(count("outbox.events.published"));
		assertThat(count("outbox.events.failed")).isZero();
		assertThat(count("outbox.events.dead")).isZero();
		assertThat(timers().stream().mapToLong(Timer::count).sum() - timed).isEqualTo(EVENTS);
		Timer fast = this.meters.get("outbox.publish.latency").tags("transport", "kafka", "path", "fast").timer();
		assertThat(fast.max(TimeUnit.MILLISECONDS)).as("commit to acknowledgement, ms")
			.isPositive()
			.isLessThan(10_000);
		assertThat(this.meters.get("outbox.backlog.dead").gauge().value()).isZero();
		assertThat(this.meters.get("outbox.backlog.oldest.age").gauge().value()).isZero();
		assertThat(this.meters.get("outbox.fastpath.queue.size").gauge().value()).isZero();
		assertThat(this.meters.get("outbox.fastpath.overflow").functionCounter().count()).isZero();
		assertThat(this.prometheus.scrape()).contains("outbox_events_captured_total{transport=\"kafka\"}",
				"outbox_events_published_total{path=\"fast\",transport=\"kafka\"}",
				"outbox_publish_latency_seconds_bucket{path=\"fast\",transport=\"kafka\"", "outbox_backlog_pending ",
				"outbox_backlog_oldest_age_seconds ", "outbox_backlog_dead ", "outbox_fastpath_queue_size ",
				"outbox_fastpath_overflow_total ", "outbox_relay_batch_size_count ", "outbox_relay_last_run_age_seconds ",
				"outbox_publish_seconds_count{");
	}

	private double count(String counter) {
		return this.meters.get(counter).tag("transport", "kafka").counters().stream().mapToDouble((c) -> c.count()).sum();
	}

	private List<Timer> timers() {
		return List.copyOf(this.meters.get("outbox.publish.latency").tag("transport", "kafka").timers());
	}

}
