package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.RabbitTestBroker.QueueRecorder;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One event routed to Kafka and to RabbitMQ is two rows, published and retried on their own: with
 * RabbitMQ unreachable, the Kafka side is delivered at once, and the RabbitMQ side once it is back.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + DualRoutingIntegrationTests.TOPIC, "test.exchange=" + DualRoutingIntegrationTests.EXCHANGE,
				"outbox.table-name=" + DualRoutingIntegrationTests.TABLE, "outbox.relay.poll-interval=100ms",
				"outbox.retry.initial-delay=100ms", "outbox.retry.max-delay=500ms", "outbox.retry.max-attempts=1" })
@DirtiesContext
class DualRoutingIntegrationTests {

	static final String TOPIC = "it-dual";

	static final String EXCHANGE = "it-dual";

	static final String TABLE = "outbox_it_dual";

	private static final TcpForwarder rabbit = TcpForwarder.onFreePort(RabbitTestBroker.address());

	private static final QueueRecorder queue;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
		RabbitTestBroker.deleteExchange(EXCHANGE);
		RabbitTestBroker.declareExchange(EXCHANGE, "topic", false);
		queue = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-dual"), EXCHANGE, "dual.placed", Map.of());
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		RabbitTestBroker.register(registry, rabbit.port());
		TestDatabase.POSTGRESQL.register(registry);
	}

	@AfterAll
	static void cleanUp() {
		rabbit.close();
		queue.close();
		RabbitTestBroker.deleteExchange(EXCHANGE);
	}

	@Test
	void kafkaSideIsDeliveredAtOnceWhileRabbitIsDownAndRabbitSideWhenItIsBack() {
		String customer = "dual-" + UUID.randomUUID();
		this.orders.place(customer, new DualPlaced(customer));

		try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
			Received onKafka = await().atMost(Duration.ofSeconds(15))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll().stream().filter((record) -> record.value().contains(customer)).toList(),
						(records) -> !records.isEmpty())
				.get(0);
			// The RabbitMQ row has failed attempts behind it, and keeps its own status.
			await().atMost(Duration.ofSeconds(15)).until(() -> rabbitRow(customer).get("attempts").equals(2));
			assertThat(rabbitRow(customer).get("status")).isEqualTo("PENDING");
			assertThat((String) rabbitRow(customer).get("last_error")).isNotBlank();
			assertThat(queue.poll()).isEmpty();

			rabbit.open();

			Message onRabbit = await().dontCatchUncaughtExceptions()
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(queue::poll, (messages) -> !messages.isEmpty())
				.get(0);
			assertThat(new String(onRabbit.getBody())).isEqualTo(onKafka.value());
			assertThat(onRabbit.getMessageProperties().getMessageId())
				.isNotEqualTo(onKafka.header(OutboxHeaders.MESSAGE_ID));
			assertThat(onRabbit.getMessageProperties().getType()).isEqualTo(onKafka.header(OutboxHeaders.EVENT_TYPE))
				.isEqualTo("dual-placed");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.jdbc.queryForList("SELECT status FROM " + TABLE + " WHERE payload LIKE ?",
						String.class, "%" + customer + "%"), (statuses) -> statuses.equals(List.of("PUBLISHED", "PUBLISHED")));
			assertThat(topic.poll().stream().filter((record) -> record.value().contains(customer))).hasSize(1);
		}
	}

	private Map<String, Object> rabbitRow(String customer) {
		return this.jdbc.queryForMap("SELECT status, attempts, last_error FROM " + TABLE
				+ " WHERE transport = 'rabbit' AND payload LIKE ?", "%" + customer + "%");
	}

	@OutboxEvent(type = "dual-placed", destination = "${test.topic}")
	@OutboxEvent(type = "dual-placed", transport = "rabbit", destination = "${test.exchange}/dual.placed")
	record DualPlaced(String customer) {
	}

}
