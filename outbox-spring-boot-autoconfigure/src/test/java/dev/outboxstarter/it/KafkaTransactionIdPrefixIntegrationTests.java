package dev.outboxstarter.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TopicRecorder;
import jakarta.persistence.EntityManagerFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;
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
 * {@code spring.kafka.producer.transaction-id-prefix}, publish with the outbox. While one instance's
 * first batch is acknowledged and not yet marked published, the other's first producer starts with the
 * same transactional id, as a replica starting up does; then both publish through a broker restart.
 * Had the outbox sent in Kafka transactions, committed only after its rows were marked published, the
 * fenced producer's records would be aborted with their events marked published. A
 * {@code read_committed} consumer receives every committed event.
 */
class KafkaTransactionIdPrefixIntegrationTests {

	private static final String TOPIC = "it-transaction-id-prefix";

	private static final String TABLE = "outbox_it_transaction_id_prefix";

	private static final int ORDERS_PER_ROUND = 40;

	@Test
	void readCommittedConsumerReceivesEveryEventOfTwoInstancesSharingATransactionIdPrefix() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		try (KafkaBrokerProcess broker = KafkaBrokerProcess
			.start(Path.of("target", "it-transaction-id-prefix", "broker.log"))) {
			broker.createTopic(TOPIC, 3);
			startTransactionLog(broker);
			HeldAcknowledgement held = new HeldAcknowledgement();
			ConfigurableApplicationContext first = start(broker, held.in("first"));
			instances.add(first);
			ConfigurableApplicationContext second = start(broker, held.in("second"));
			instances.add(second);
			assertThat(instances).allSatisfy((instance) -> assertThat(
					instance.getBean(KafkaTemplate.class).isTransactional())
				.as("the application's own KafkaTemplate is transactional")
				.isTrue());

			place(first, "first", 1);
			String holder = await("an instance's first record acknowledged").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(held::holder, Objects::nonNull);
			place(holder.equals("first") ? second : first, "other", 1);
			await("the other instance's event published").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> rows(jdbc, "PUBLISHED") == 1);
			held.release();

			broker.stop();
			placeOrders(instances, "outage");
			broker.startAgain();
			placeOrders(instances, "after");

			int committed = 2 + 2 * ORDERS_PER_ROUND;
			await("every event marked published").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> rows(jdbc, "PUBLISHED") == committed);
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

	private static int rows(JdbcTemplate jdbc, String status) {
		return jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = ?", Integer.class, status);
	}

	private static void place(ConfigurableApplicationContext instance, String customer, int line) {
		instance.getBean(OrderService.class).place(customer, new OrderPlaced(customer, line));
	}

	/** Places orders on the instances in turn, so that both publish at the same time. */
	private static void placeOrders(List<ConfigurableApplicationContext> instances, String round) {
		for (int i = 0; i < ORDERS_PER_ROUND; i++) {
			place(instances.get(i % instances.size()), round + "-" + (i % 12), i);
		}
	}

	/**
	 * Has the broker create its transaction log: under load that can take longer than the instances'
	 * {@code max.block.ms}, and a producer that failed to start would leave its transactional id unused.
	 */
	private static void startTransactionLog(KafkaBrokerProcess broker) {
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
						ProducerConfig.TRANSACTIONAL_ID_CONFIG, "transaction-log-start"),
				new StringSerializer(), new StringSerializer())) {
			producer.initTransactions();
		}
	}

	private static ConfigurableApplicationContext start(KafkaBrokerProcess broker,
			OutboxTransportDecorator decorator) {
		// The publish timeout outlasts the held acknowledgement.
		List<String> properties = new ArrayList<>(List.of("test.topic=" + TOPIC, "outbox.table-name=" + TABLE,
				"outbox.publish-timeout=10s", "outbox.relay.poll-interval=100ms", "outbox.retry.initial-delay=200ms",
				"outbox.retry.max-delay=1s", "spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
				"spring.kafka.producer.transaction-id-prefix=orders-tx-",
				"spring.kafka.producer.properties.max.block.ms=3000",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200"));
		properties.addAll(List.of(TestDatabase.POSTGRESQL.properties()));
		return new SpringApplicationBuilder(OrdersTestApplication.class, JpaTransactionsFirst.class)
			.web(WebApplicationType.NONE)
			.initializers((context) -> context.getBeanFactory().registerSingleton("heldAcknowledgement", decorator))
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

	/**
	 * The first Kafka acknowledgement of either instance is held back from the outbox until the test
	 * releases it, so that its batch waits, sent and acknowledged but not yet marked published (a failed
	 * send is not held).
	 */
	static final class HeldAcknowledgement {

		private final AtomicReference<String> holder = new AtomicReference<>();

		private final CompletableFuture<Void> released = new CompletableFuture<>();

		OutboxTransportDecorator in(String instance) {
			return (transport) -> new ForwardingOutboxTransport(transport) {

				@Override
				public CompletableFuture<?> send(OutboxMessage message) {
					return super.send(message).thenCompose((acknowledgement) -> holdIfFirst(name(), instance, acknowledgement));
				}

			};
		}

		private <T> CompletableFuture<T> holdIfFirst(String transport, String instance, T acknowledgement) {
			if (transport.equals("kafka") && this.holder.compareAndSet(null, instance)) {
				return this.released.thenApply((released) -> acknowledgement);
			}
			return CompletableFuture.completedFuture(acknowledgement);
		}

		@Nullable String holder() {
			return this.holder.get();
		}

		void release() {
			this.released.complete(null);
		}

	}

}
