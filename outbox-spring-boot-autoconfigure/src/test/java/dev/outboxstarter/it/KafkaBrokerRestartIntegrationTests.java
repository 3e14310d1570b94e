package dev.outboxstarter.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.AfterAll;
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
 * The Kafka broker stops while the producer knows it, and starts again: the outage is not the events'
 * fault. With a single attempt allowed and a minute's backoff, no event becomes DEAD while the broker
 * is away; once it is back, its first acknowledgement makes the backed-off events due at once, and
 * every event arrives, in order per key.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + KafkaBrokerRestartIntegrationTests.TOPIC,
				"outbox.table-name=" + KafkaBrokerRestartIntegrationTests.TABLE, "outbox.publish-timeout=1s",
				"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=1m", "outbox.retry.max-delay=1m",
				"outbox.retry.max-attempts=1", "spring.kafka.producer.properties.max.block.ms=1000",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200" })
@DirtiesContext
class KafkaBrokerRestartIntegrationTests {

	static final String TOPIC = "it-broker-restart";

	static final String TABLE = "outbox_it_broker_restart";

	private static final Pattern LINE = Pattern.compile("\"line\":(\\d+)");

	private static KafkaBrokerProcess broker;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		broker = KafkaBrokerProcess.start(Path.of("target", "it-broker-restart", "broker.log"));
		broker.createTopic(TOPIC, 3);
		registry.add("spring.kafka.bootstrap-servers", broker::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.close();
		}
	}

	@Test
	void eventsWrittenWhileTheBrokerIsAwayAreNeverDeadAndArriveInOrderOnceItIsBack() {
		String prefix = "restart-" + UUID.randomUUID();
		this.orders.place(prefix + "-before", new OrderPlaced(prefix + "-before", 1));
		// The broker process was just started: its first metadata answer can take a while on a busy machine.
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> rows("PUBLISHED") == 1);

		broker.stop();
		for (int i = 0; i < 3; i++) {
			String customer = prefix + "-" + i;
			this.orders.place(customer, new OrderPlaced(customer, 1), new OrderPlaced(customer, 2),
					new OrderPlaced(customer, 3));
		}
		// Each order's first event has failed (unacknowledged, or refused for want of metadata).
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.jdbc.queryForObject(
					"SELECT COUNT(DISTINCT message_key) FROM " + TABLE + " WHERE attempts > 0", Integer.class) == 3);
		assertThat(rows("DEAD")).isZero();
		assertThat(rows("PENDING")).isEqualTo(9);

		broker.startAgain();
		this.orders.place(prefix + "-after", new OrderPlaced(prefix + "-after", 1));
		// Well within the minute of backoff: the acknowledgement of the new event made the others due.
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> rows("PUBLISHED") == 11);
		assertThat(rows("DEAD")).isZero();

		try (TopicRecorder topic = new TopicRecorder(broker.bootstrapServers(), TOPIC)) {
			Map<String, List<Integer>> linesByKey = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> firstArrivalsByKey(topic.poll(), prefix),
						(arrivals) -> arrivals.values().stream().mapToInt(List::size).sum() == 11);
			assertThat(linesByKey).hasSize(5);
			assertThat(linesByKey.values()).allSatisfy((lines) -> assertThat(lines).isSorted());
		}
	}

	private int rows(String status) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = ?", Integer.class, status);
	}

	/**
	 * Each key's order lines in the order they first arrived: a record sent during the outage may still
	 * be delivered from the producer's buffer, and then again by the retry.
	 */
	private static Map<String, List<Integer>> firstArrivalsByKey(List<Received> records, String prefix) {
		Map<String, Set<String>> valuesByKey = new LinkedHashMap<>();
		for (Received record : records) {
			if (record.value().contains(prefix)) {
				valuesByKey.computeIfAbsent(record.key(), (key) -> new LinkedHashSet<>()).add(record.value());
			}
		}
		Map<String, List<Integer>> linesByKey = new LinkedHashMap<>();
		valuesByKey.forEach((key, values) -> {
			List<Integer> lines = new ArrayList<>();
			for (String value : values) {
				Matcher line = LINE.matcher(value);
				assertThat(line.find()).as("a line in %s", value).isTrue();
				lines.add(Integer.parseInt(line.group(1)));
			}
			linesByKey.put(key, lines);
		});
		return linesByKey;
	}

}
