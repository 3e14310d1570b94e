package dev.outboxstarter.it;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.actuate.OutboxEndpoint;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Kafka topic that does not exist, on a broker that does not create topics, fails every send to it
 * like an unreachable broker (no metadata within {@code max.block.ms}). It must not hold up the events
 * of the topics that exist: while they keep being acknowledged, sends to the missing topic pause
 * instead of blocking every fast-path batch, its events wait (never DEAD), and once the topic is
 * created they arrive. Meanwhile the metrics, the health details and the endpoint name the paused
 * destination. Events not sent because of the pause are postponed, not failed: only the sends made
 * count as attempts and in {@code outbox.events.failed}.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + MissingKafkaTopicIntegrationTests.TOPIC,
				"test.audit-topic=" + MissingKafkaTopicIntegrationTests.MISSING_TOPIC,
				"outbox.table-name=" + MissingKafkaTopicIntegrationTests.TABLE, "outbox.publish-timeout=5s",
				"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=2s", "outbox.retry.max-delay=2s",
				"outbox.retry.max-attempts=1", "spring.kafka.producer.properties.max.block.ms=1000",
				"management.endpoints.web.exposure.include=health,outbox" })
@Import(MissingKafkaTopicIntegrationTests.FailedSends.class)
@DirtiesContext
class MissingKafkaTopicIntegrationTests {

	static final String TOPIC = "it-missing-topic-orders";

	static final String MISSING_TOPIC = "it-missing-topic-audit";

	static final String TABLE = "outbox_it_missing_topic";

	private static final int ORDERS = 20;

	private static EmbeddedKafkaKraftBroker broker;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private HealthIndicator outboxHealthIndicator;

	@Autowired
	private OutboxEndpoint endpoint;

	@Autowired
	private FailedSends failedSends;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		broker = TestKafka.startWithoutTopicCreation();
		broker.addTopics(new NewTopic(TOPIC, 3, (short) 1));
		registry.add("spring.kafka.bootstrap-servers", broker::getBrokersAsString);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.destroy();
		}
	}

	@Test
	void missingTopicPausesAloneVisiblyAndItsEventsArriveOnceItIsCreated() {
		String prefix = "missing-" + UUID.randomUUID();
		for (int i = 0; i < ORDERS; i++) {
			String customer = prefix + "-" + i;
			this.orders.place(customer, new OrderPlaced(customer, 1), new AuditNoted(customer));
		}

		// Every order's event to the existing topic goes out right after its commit: none waits for
		// the relay because a send to the missing topic blocked its batch.
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> rows(TOPIC, "PUBLISHED") == ORDERS);
		assertThat(this.meters.get("outbox.events.published").tags("transport", "kafka", "path", "fast").counter().count())
			.isEqualTo(ORDERS);
		assertThat(rows(MISSING_TOPIC, "PENDING")).isEqualTo(ORDERS);
		assertThat(this.jdbc.queryForList(
				"SELECT last_error FROM " + TABLE + " WHERE destination = ? AND last_error IS NOT NULL", String.class,
				MISSING_TOPIC))
			.isNotEmpty()
			.allSatisfy((error) -> assertThat(error).containsAnyOf("UnknownTopicOrPartitionException",
					"not present in metadata"));

		// The operator sees which destination is paused. (Whether the transport also shows as unavailable
		// depends on timing: a probe of the missing topic while nothing else is sent looks like an outage.)
		assertThat(this.meters.get("outbox.destinations.paused").gauge().value()).isEqualTo(1);
		assertThat(this.endpoint.summary(null, null).pausedDestinations()).singleElement().satisfies((paused) -> {
			assertThat(paused.transport()).isEqualTo("kafka");
			assertThat(paused.destination()).isEqualTo(MISSING_TOPIC);
			assertThat(paused.pauses()).isPositive();
			assertThat(paused.error()).containsAnyOf("UnknownTopicOrPartitionException", "not present in metadata");
		});
		assertThat(this.outboxHealthIndicator.health(true).getDetails()).containsKey("pausedDestinations");

		// An event to the paused topic raised now is not sent while the pause (2 s) lasts: it is
		// postponed, which is not an attempt.
		String late = prefix + "-late";
		this.orders.place(late, new OrderPlaced(late, 1), new AuditNoted(late));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.meters.get("outbox.events.postponed").tag("transport", "kafka").counter().count() > 0);
		assertThat(this.jdbc.queryForObject(
				"SELECT attempts FROM " + TABLE + " WHERE destination = ? AND payload LIKE ?", Integer.class,
				MISSING_TOPIC, "%" + late + "%"))
			.isZero();

		broker.addTopics(new NewTopic(MISSING_TOPIC, 3, (short) 1));

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> rows(MISSING_TOPIC, "PUBLISHED") == ORDERS + 1);
		try (TopicRecorder topic = new TopicRecorder(broker.getBrokersAsString(), MISSING_TOPIC)) {
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.untilAsserted(() -> assertThat(topic.poll()
					.stream()
					.map(TopicRecorder.Received::value)
					.filter((value) -> value.contains(prefix))
					.distinct()).hasSize(ORDERS + 1));
		}
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			assertThat(this.meters.get("outbox.destinations.paused").gauge().value()).isZero();
			assertThat(this.endpoint.summary(null, null).pausedDestinations()).isEmpty();
			assertThat(this.outboxHealthIndicator.health(true).getDetails()).doesNotContainKey("pausedDestinations");
		});

		// Every attempt counted, in the rows and in outbox.events.failed, was a send made to the missing
		// topic that failed; the sends the pauses held back were not.
		int failedSends = this.failedSends.to(MISSING_TOPIC);
		assertThat(failedSends).isPositive();
		assertThat(this.jdbc.queryForObject("SELECT SUM(attempts) FROM " + TABLE + " WHERE destination = ?",
				Integer.class, MISSING_TOPIC))
			.isEqualTo(failedSends);
		assertThat(this.meters.get("outbox.events.failed").tag("transport", "kafka").counter().count())
			.isEqualTo(failedSends);
	}

	private int rows(String destination, String status) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE destination = ? AND status = ?",
				Integer.class, destination, status);
	}

	/** Counts the sends that failed, by destination, as the broker answered them. */
	static class FailedSends implements OutboxTransportDecorator {

		private final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();

		int to(String destination) {
			AtomicInteger count = this.failed.get(destination);
			return (count != null) ? count.get() : 0;
		}

		@Override
		public OutboxTransport decorate(OutboxTransport transport) {
			return new ForwardingOutboxTransport(transport) {

				@Override
				public CompletableFuture<?> send(OutboxMessage message) {
					try {
						return super.send(message).whenComplete((acknowledged, failure) -> {
							if (failure != null) {
								failed(message);
							}
						});
					}
					catch (RuntimeException ex) {
						failed(message);
						throw ex;
					}
				}

			};
		}

		private void failed(OutboxMessage message) {
			this.failed.computeIfAbsent(message.destination(), (destination) -> new AtomicInteger()).incrementAndGet();
		}

	}

	/** An event to the topic that is missing until the test creates it. */
	@OutboxEvent(destination = "${test.audit-topic}")
	public record AuditNoted(String customer) {
	}

}
