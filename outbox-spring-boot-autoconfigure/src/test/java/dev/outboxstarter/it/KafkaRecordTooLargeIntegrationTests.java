package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.it.orders.PurchaseOrder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A record the Kafka broker refuses as too large for its topic ({@code max.message.bytes}) cannot be
 * published by retrying: the event is DEAD at its first attempt, with the broker's error, instead of
 * holding back the later events of its key for ten attempts of backoff. Once an operator raises the
 * topic's limit, the DEAD event is retried and arrives.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + KafkaRecordTooLargeIntegrationTests.TOPIC,
				"outbox.table-name=" + KafkaRecordTooLargeIntegrationTests.TABLE, "outbox.relay.poll-interval=200ms",
				"outbox.fast-path.grace-period=1s", "outbox.retry.max-attempts=10" })
class KafkaRecordTooLargeIntegrationTests {

	static final String TOPIC = "it-too-large";

	static final String TABLE = "outbox_it_too_large";

	private static final int TOPIC_LIMIT = 4096;

	private static TopicRecorder topic;

	@Autowired
	private OrderService orders;

	@Autowired
	private DeadEvents deadEvents;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private MeterRegistry meters;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 1, Map.of("max.message.bytes", String.valueOf(TOPIC_LIMIT)));
	}

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@BeforeAll
	static void subscribe() {
		topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC);
	}

	@AfterAll
	static void unsubscribe() {
		topic.close();
	}

	@Test
	void recordTooLargeForTheTopicIsDeadAtOnceHoldsNothingBackAndArrivesWhenRetriedOnceTheLimitIsRaised()
			throws Exception {
		String customer = "large-" + UUID.randomUUID();
		String large = customer + "-" + "x".repeat(2 * TOPIC_LIMIT);
		PurchaseOrder order = this.orders.place(customer, new OrderPlaced(large, 1));

		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> statusOf(large), "DEAD"::equals);
		assertThat(this.jdbc.queryForObject("SELECT attempts FROM " + TABLE + " WHERE payload LIKE ?", Integer.class,
				"%" + large + "%"))
			.as("no retries that could only fail")
			.isOne();
		assertThat(this.jdbc.queryForObject("SELECT last_error FROM " + TABLE + " WHERE payload LIKE ?", String.class,
				"%" + large + "%"))
			.contains("RecordTooLargeException");
		assertThat(this.meters.get("outbox.events.dead").counter().count()).isOne();

		// The order's next event is not held back behind a retry schedule.
		this.orders.pay(order.getId());
		Received paid = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> received("\"orderId\":" + order.getId()), (records) -> !records.isEmpty())
			.get(0);
		assertThat(paid.key()).isEqualTo(String.valueOf(order.getId()));

		// The operator raises the topic's limit, then puts the event back.
		TestKafka.alterTopic(TOPIC, "max.message.bytes", String.valueOf(4 * TOPIC_LIMIT));
		UUID id = this.jdbc.queryForObject("SELECT id FROM " + TABLE + " WHERE payload LIKE ?", UUID.class,
				"%" + large + "%");
		assertThat(this.deadEvents.retry(id)).isTrue();
		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> received(large), (records) -> records.size() == 1);
		// Marked once the acknowledgement is in, which may be after the consumer has the record.
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> statusOf(large), "PUBLISHED"::equals);
	}

	private String statusOf(String payloadPart) {
		return this.jdbc.queryForObject("SELECT status FROM " + TABLE + " WHERE payload LIKE ?", String.class,
				"%" + payloadPart + "%");
	}

	private static List<Received> received(String payloadPart) {
		return topic.poll().stream().filter((record) -> record.value().contains(payloadPart)).toList();
	}

}
