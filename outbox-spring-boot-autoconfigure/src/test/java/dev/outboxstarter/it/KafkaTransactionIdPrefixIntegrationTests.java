package dev.outboxstarter.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TopicRecorder;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of an application that uses Kafka transactions elsewhere, and so sets
 * {@code spring.kafka.producer.transaction-id-prefix}, publish at the same time, through a broker
 * restart. A producer of one instance fences the other's with the same transactional id, aborting its
 * open transaction: had the outbox sent in Kafka transactions, committed only after its rows were
 * marked published, those records would be gone. A {@code read_committed} consumer receives every
 * committed event.
 */
class KafkaTransactionIdPrefixIntegrationTests {

	private static final String TOPIC = "it-transaction-id-prefix";

	private static final String TABLE = "outbox_it_transaction_id_prefix";

	private static final int ORDERS_PER_ROUND = 60;

	@Test
	void readCommittedConsumerReceivesEveryEventOfTwoInstancesSharingATransactionIdPrefix() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess
			.start(Path.of("target", "it-transaction-id-prefix", "broker.log"))) {
			broker.createTopic(TOPIC, 3);
			instances.add(start(broker));
			instances.add(start(broker));
			assertThat(instances).allSatisfy((instance) -> assertThat(
					instance.getBean(KafkaTemplate.class).isTransactional())
				.as("the application's own KafkaTemplate is transactional")
				.isTrue());

			placeOrders(instances, "before");
			broker.stop();
			placeOrders(instances, "outage");
			broker.startAgain();
			placeOrders(instances, "after");

			int committed = 3 * ORDERS_PER_ROUND;
			await("every event marked published").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PUBLISHED'",
						Integer.class) == committed);
			Set<String> published = new HashSet<>(jdbc.queryForList("SELECT CAST(id AS VARCHAR) FROM " + TABLE,
					String.class));
			try (TopicRecorder topic = TopicRecorder.readCommitted(broker.bootstrapServers(), TOPIC)) {
				Set<String> received = new HashSet<>();
				await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
					topic.poll().forEach((record) -> received.add(record.header(OutboxHeaders.MESSAGE_ID)));
					Set<String> missing = new HashSet<>(published);
					missing.removeAll(received);
					assertThat(missing).as("events marked published that a read_committed consumer has not received, of %d",
							published.size())
						.isEmpty();
				});
			}
		}
		finally {
			instances.forEach(ConfigurableApplicationContext::close);
		}
	}

	/** Places orders on the instances in turn, so that both publish at the same time. */
	private static void placeOrders(List<ConfigurableApplicationContext> instances, String round) {
		for (int i = 0; i < ORDERS_PER_ROUND; i++) {
			String customer = round + "-" + (i % 12);
			instances.get(i % instances.size())
				.getBean(OrderService.class)
				.place(customer, new OrderPlaced(customer, i));
		}
	}

	private static ConfigurableApplicationContext start(KafkaBrokerProcess broker) {
		List<String> properties = new ArrayList<>(List.of("test.topic=" + TOPIC, "outbox.table-name=" + TABLE,
				"outbox.publish-timeout=1s", "outbox.relay.poll-interval=100ms", "outbox.retry.initial-delay=200ms",
				"outbox.retry.max-delay=1s", "spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
				"spring.kafka.producer.transaction-id-prefix=orders-tx-",
				"spring.kafka.producer.properties.max.block.ms=1000",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200"));
		properties.addAll(List.of(TestDatabase.POSTGRESQL.properties()));
		return new SpringApplicationBuilder(OrdersTestApplication.class, JpaTransactionsFirst.class)
			.web(WebApplicationType.NONE)
			.run(properties.stream().map((property) -> "--" + property).toArray(String[]::new));
	}

	/**
	 * With a transaction id prefix, Spring Boot adds a Kafka transaction manager; the application's
	 * {@code @Transactional} methods keep the JPA one, made primary as Spring for Apache Kafka
	 * documents.
	 */
	@Configuration(proxyBeanMethods = false)
	static class JpaTransactionsFirst {

		@Bean
		@Primary
		JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory) {
			return new JpaTransactionManager(entityManagerFactory);
		}

	}

}
