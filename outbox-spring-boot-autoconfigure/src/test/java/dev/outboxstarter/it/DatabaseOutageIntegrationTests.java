package dev.outboxstarter.it;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The database becoming unreachable, on PostgreSQL and MariaDB, for an application connected to it
 * through a port the test closes and opens again. At capture, the business transaction fails with the
 * driver's error and nothing of it is written or published. While the relay publishes, the batch it
 * could not mark is published again once the database is back, and the relay warns once for the
 * outage, not once per failed poll. (H2 runs inside the application: it is not reached over a
 * network that can fail.)
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseOutageIntegrationTests {

	private static final String TABLE = "outbox_it_db_outage";

	private static final String RELAY_WARNING = "OutboxRelay +: Outbox relay poll failed";

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void databaseDownAtCaptureFailsTheBusinessTransactionAndNothingOfItIsWrittenOrPublished(TestDatabase database) {
		try (Instance instance = new Instance(database)) {
			String unreachable = "unreachable-" + UUID.randomUUID();
			String cut = "cut-" + UUID.randomUUID();

			instance.database.close();
			assertThatException()
				.isThrownBy(() -> instance.orders().place(unreachable, new OrderPlaced(unreachable, 1)))
				.satisfies(DatabaseOutageIntegrationTests::isTheDriversError);
			instance.database.open();
			// The connection is lost between the business change and the commit, which writes the events.
			assertThatException().isThrownBy(() -> instance.transactions().executeWithoutResult((status) -> {
				instance.orders().place(cut, new OrderPlaced(cut, 1));
				instance.database.close();
			})).satisfies(DatabaseOutageIntegrationTests::isTheDriversError);
			instance.database.open();

			String after = "after-" + UUID.randomUUID();
			instance.onceTheDatabaseAnswers(() -> instance.orders().place(after, new OrderPlaced(after, 1)));
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> instance.received(after).size() == 1);
			for (String customer : List.of(unreachable, cut)) {
				assertThat(instance.jdbc.queryForObject("SELECT COUNT(*) FROM purchase_order WHERE customer = ?",
						Integer.class, customer))
					.isZero();
				assertThat(instance.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE payload LIKE ?",
						Integer.class, "%" + customer + "%"))
					.isZero();
				assertThat(instance.received(customer)).isEmpty();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void databaseLostWhileTheRelayPublishesLosesNothingAndTheRelayWarnsOnceForTheOutage(TestDatabase database,
			CapturedOutput output) {
		try (Instance instance = new Instance(database)) {
			String run = "relay-" + UUID.randomUUID();
			List<String> customers = IntStream.range(0, 20).mapToObj((i) -> run + "-" + i).toList();

			// The first send of the relay's batch cuts the database off: the broker acknowledges the
			// batch, which the relay then cannot mark published.
			instance.cutOnNextSend.set(true);
			instance.orders().placeAll(customers);
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> instance.received(run).size() >= customers.size());
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> instance.relayConnectionFailures.get() >= 3);
			instance.database.open();

			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> instance.jdbc.queryForObject(
						"SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PUBLISHED' AND payload LIKE ?",
						Integer.class, "%" + run + "%") == customers.size());
			List<String> rowIds = instance.jdbc.queryForList("SELECT id FROM " + TABLE + " WHERE payload LIKE ?",
					String.class, "%" + run + "%");
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(100))
				.untilAsserted(() -> assertThat(instance.received(run)
					.stream()
					.map((record) -> record.header(OutboxHeaders.MESSAGE_ID))
					.collect(Collectors.toSet())).containsExactlyInAnyOrderElementsOf(rowIds));
			assertThat(count(output, RELAY_WARNING)).as("warnings for one outage of %s failed polls",
					instance.relayConnectionFailures.get() + 1)
				.isOne();
			assertThat(count(output, "OutboxRelay +: Outbox relay polls again after")).isOne();
		}
	}

	private static void isTheDriversError(Throwable failure) {
		assertThat(Stream.iterate(failure, Objects::nonNull, Throwable::getCause)).as("the causes of %s", failure)
			.anySatisfy((cause) -> assertThat(cause).isInstanceOf(SQLException.class));
	}

	private static int count(CapturedOutput output, String pattern) {
		Matcher matcher = Pattern.compile(pattern).matcher(output.getAll());
		int count = 0;
		while (matcher.find()) {
			count++;
		}
		return count;
	}

	/**
	 * An application whose connections to the database go through a port the test closes and opens,
	 * publishing through the relay only.
	 */
	private static final class Instance implements AutoCloseable {

		private static final Pattern HOST_AND_PORT = Pattern.compile("//([^/?;]+)");

		private final TcpForwarder database;

		private final JdbcTemplate jdbc;

		private final TopicRecorder recorder;

		private final AtomicBoolean cutOnNextSend = new AtomicBoolean();

		private final AtomicInteger relayConnectionFailures = new AtomicInteger();

		private final ConfigurableApplicationContext context;

		Instance(TestDatabase database) {
			String topic = "it-db-outage-" + database.name().toLowerCase(Locale.ROOT);
			TestKafka.createTopic(topic, 3);
			database.dropTable(TABLE);
			this.jdbc = new JdbcTemplate(database.dataSource());
			Matcher address = HOST_AND_PORT.matcher(database.url());
			assertThat(address.find()).as("host and port in %s", database.url()).isTrue();
			this.database = TcpForwarder.onFreePort(address.group(1));
			this.database.open();
			String url = database.url().replace("//" + address.group(1), "//" + this.database.address());
			String[] arguments = Stream.of("test.topic=" + topic, "outbox.table-name=" + TABLE,
					"outbox.fast-path.enabled=false", "outbox.relay.poll-interval=200ms",
					"spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers(), "spring.datasource.url=" + url,
					"spring.datasource.username=" + database.username(),
					"spring.datasource.password=" + database.password(),
					"spring.datasource.hikari.connection-timeout=1000", "spring.datasource.hikari.validation-timeout=500")
				.map((argument) -> "--" + argument)
				.toArray(String[]::new);
			this.context = new SpringApplicationBuilder(OrdersTestApplication.class).web(WebApplicationType.NONE)
				.initializers((context) -> {
					context.getBeanFactory().registerSingleton("cutDatabaseOnSend", cutDatabaseOnSend());
					context.getBeanFactory().addBeanPostProcessor(countingRelayConnectionFailures());
				})
				.run(arguments);
			this.recorder = new TopicRecorder(TestKafka.bootstrapServers(), topic);
		}

		OrderService orders() {
			return this.context.getBean(OrderService.class);
		}

		TransactionTemplate transactions() {
			return this.context.getBean(TransactionTemplate.class);
		}

		/**
		 * Runs business code once the database answers again: until the pool has replaced the
		 * connections the outage cut, a transaction can still get one of them and fail, writing nothing.
		 */
		void onceTheDatabaseAnswers(Runnable business) {
			await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
				business.run();
				return true;
			});
		}

		List<TopicRecorder.Received> received(String marker) {
			return this.recorder.poll().stream().filter((record) -> record.value().contains(marker)).toList();
		}

		private OutboxTransportDecorator cutDatabaseOnSend() {
			return (transport) -> new ForwardingOutboxTransport(transport) {

				@Override
				public CompletableFuture<?> send(OutboxMessage message) {
					CompletableFuture<?> sent = super.send(message);
					if (Instance.this.cutOnNextSend.compareAndSet(true, false)) {
						Instance.this.database.close();
					}
					return sent;
				}

			};
		}

		/** Counts the connections the relay asked for and did not get: one per failed poll. */
		private BeanPostProcessor countingRelayConnectionFailures() {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (!(bean instanceof DataSource dataSource)) {
						return bean;
					}
					return new DelegatingDataSource(dataSource) {

						@Override
						public Connection getConnection() throws SQLException {
							try {
								return super.getConnection();
							}
							catch (SQLException ex) {
								if (Thread.currentThread().getName().startsWith("outbox-relay")) {
									Instance.this.relayConnectionFailures.incrementAndGet();
								}
								throw ex;
							}
						}

					};
				}

			};
		}

		@Override
		public void close() {
			this.recorder.close();
			this.database.open();
			this.context.close();
			this.database.close();
		}

	}

}
