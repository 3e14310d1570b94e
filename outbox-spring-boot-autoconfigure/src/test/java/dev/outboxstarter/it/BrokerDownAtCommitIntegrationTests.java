package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The broker is unreachable when the business transactions commit: they commit anyway, their events
 * stay pending, and everything arrives once the broker address is reachable.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + BrokerDownAtCommitIntegrationTests.TOPIC,
				"outbox.table-name=" + BrokerDownAtCommitIntegrationTests.TABLE, "outbox.publish-timeout=2s",
				"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=200ms", "outbox.retry.max-delay=1s",
				"outbox.retry.max-attempts=1", "spring.kafka.producer.properties.max.block.ms=500",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200" })
@DirtiesContext
class BrokerDownAtCommitIntegrationTests {

	static final String TOPIC = "it-broker-down";

	static final String TABLE = "outbox_it_broker_down";

	private static final TcpForwarder broker = TestKafka.unreachableAddress();

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", broker::address);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void businessCommitsSucceedWhileTheBrokerIsDownAndTheirEventsArriveWhenItIsBack() {
		String prefix = "down-" + UUID.randomUUID();
		for (int i = 0; i < 5; i++) {
			this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1));
		}
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PENDING'", Integer.class))
			.isEqualTo(5);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM purchase_order WHERE customer LIKE ?", Integer.class,
				prefix + "%"))
			.isEqualTo(5);
		// Attempts fail and are recorded while nothing listens. A batch stops at the first send the
		// producer refuses (no metadata within max.block.ms), so the other rows wait untouched.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.jdbc.queryForObject("SELECT MAX(attempts) FROM " + TABLE, Integer.class) > 1);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PENDING'", Integer.class))
			.isEqualTo(5);

		broker.open();
		try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
			List<Received> received = await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> topic.poll().stream().filter((record) -> record.value().contains(prefix)).toList(),
						(records) -> records.size() >= 5);
			assertThat(received).extracting(Received::value).doesNotHaveDuplicates();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PUBLISHED'",
						Integer.class) == 5);
		}
		finally {
			broker.close();
		}
	}

}
