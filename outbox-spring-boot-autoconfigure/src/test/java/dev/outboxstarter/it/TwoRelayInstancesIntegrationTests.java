package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two application instances share one outbox table: their relays split 10,000 pending rows through
 * {@code SKIP LOCKED}, every row is published exactly once, and each key's events arrive in order.
 */
class TwoRelayInstancesIntegrationTests {

	private static final String TOPIC = "it-two-relays";

	private static final String TABLE = "outbox_it_two_relays";

	private static final int EVENTS = 10_000;

	private static final int KEYS = 200;

	@Test
	void twoRelaysPublishEveryPendingRowExactlyOnceAndInOrderPerKey() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
		List<ConfigurableApplicationContext> contexts = new ArrayList<>();
		try {
			ConfigurableApplicationContext writer = start("outbox.relay.enabled=false");
			contexts.add(writer);
			ConfigurableApplicationContext first = start();
			contexts.add(first);
			ConfigurableApplicationContext second = start();
			contexts.add(second);

			// One transaction, so that all rows become pending for both relays at the same moment. Small
			// batches and a short poll keep the drain many poll intervals long, so that the second relay
			// polls while the first is still draining, however fast the machine (with batches of 200 and a
			// 100 ms poll, one relay once drained all 10,000 rows before the other polled).
			Outbox outbox = writer.getBean(Outbox.class);
			writer.getBean(TransactionTemplate.class).executeWithoutResult((status) -> {
				for (int i = 0; i < EVENTS; i++) {
					outbox.publish("Load", i % KEYS, new OrderPlaced("load", i));
				}
			});

			try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
				List<Received> received = await().atMost(Duration.ofSeconds(120))
					.pollInterval(Duration.ofMillis(100))
					.until(topic::poll, (records) -> records.size() >= EVENTS);
				assertThat(received).hasSize(EVENTS);
				assertThat(received).extracting((record) -> record.header(OutboxHeaders.MESSAGE_ID)).doesNotHaveDuplicates();
				assertOrderedPerKey(received);
			}
			PublishedEvents byFirst = first.getBean(PublishedEvents.class);
			PublishedEvents bySecond = second.getBean(PublishedEvents.class);
			// Listeners are told once each delivery is committed, which can be after the consumer saw it.
			await().atMost(Duration.ofSeconds(10)).until(() -> byFirst.total() + bySecond.total() >= EVENTS);
			assertThat(byFirst.total() + bySecond.total()).isEqualTo(EVENTS);
			assertThat(byFirst.total()).as("published by the first instance").isPositive();
			assertThat(bySecond.total()).as("published by the second instance").isPositive();
			assertThat(new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource())
				.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status <> 'PUBLISHED'", Integer.class)).isZero();
		}
		finally {
			contexts.forEach(ConfigurableApplicationContext::close);
		}
	}

	private static void assertOrderedPerKey(List<Received> received) {
		JsonMapper json = new JsonMapper();
		Map<String, Integer> lastLine = new HashMap<>();
		Set<String> violations = new HashSet<>();
		for (Received record : received) {
			int line = json.readTree(record.value()).get("line").asInt();
			Integer previous = lastLine.put(record.key(), line);
			if (previous != null && previous > line) {
				violations.add(record.key() + ": " + previous + " before " + line);
			}
		}
		assertThat(lastLine).hasSize(KEYS);
		assertThat(violations).isEmpty();
	}

	private static ConfigurableApplicationContext start(String... extraProperties) {
		List<String> properties = new ArrayList<>(List.of("test.topic=" + TOPIC, "outbox.table-name=" + TABLE,
				"outbox.fast-path.enabled=false", "outbox.relay.poll-interval=20ms", "outbox.relay.batch-size=20",
				"spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers()));
		properties.addAll(List.of(TestDatabase.POSTGRESQL.properties()));
		properties.addAll(List.of(extraProperties));
		return new SpringApplicationBuilder(OrdersTestApplication.class, Counting.class)
			.web(WebApplicationType.NONE)
			.run(properties.stream().map((property) -> "--" + property).toArray(String[]::new));
	}

	@Configuration(proxyBeanMethods = false)
	static class Counting {

		@Bean
		PublishedEvents publishedEvents() {
			return new PublishedEvents();
		}

	}

}
