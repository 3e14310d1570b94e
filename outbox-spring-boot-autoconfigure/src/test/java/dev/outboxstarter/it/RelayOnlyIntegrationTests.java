package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the fast path switched off, the relay alone publishes every committed event.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + RelayOnlyIntegrationTests.TOPIC, "outbox.table-name=" + RelayOnlyIntegrationTests.TABLE,
				"outbox.fast-path.enabled=false", "outbox.relay.poll-interval=100ms" })
@Import(RelayOnlyIntegrationTests.Config.class)
class RelayOnlyIntegrationTests {

	static final String TOPIC = "it-relay-only";

	static final String TABLE = "outbox_it_relay_only";

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private PublishedEvents published;

	@Autowired
	private OutboxMonitoring monitoring;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void relayAlonePublishesEveryCommittedEventWhenTheFastPathIsOff() {
		assertThat(this.monitoring.fastPathRuns()).isFalse();
		String prefix = "relay-" + UUID.randomUUID();
		for (int i = 0; i < 10; i++) {
			this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1), new OrderPlaced(prefix + "-" + i, 2));
		}

		try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
			List<Received> received = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll().stream().filter((record) -> record.value().contains(prefix)).toList(),
						(records) -> records.size() >= 20);
			Set<UUID> ids = received.stream()
				.map((record) -> UUID.fromString(record.header(OutboxHeaders.MESSAGE_ID)))
				.collect(Collectors.toSet());
			assertThat(ids).hasSize(20);
			// Listeners are told once the delivery is committed, which can be after the consumer saw it.
			await().atMost(Duration.ofSeconds(10)).until(() -> this.published.byRelay().containsAll(ids));
			assertThat(this.published.byFastPath()).isEmpty();
		}
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Config {

		@Bean
		PublishedEvents publishedEvents() {
			return new PublishedEvents();
		}

	}

}
