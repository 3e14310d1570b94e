package dev.outboxstarter.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Delayed delivery end to end, on PostgreSQL and MariaDB with a real Kafka broker: every delayed event is
 * published once and never before its time, by whichever instance polls, also after the instance that
 * wrote it stopped; and it holds back the later events of its key only when it was asked to. Times are
 * compared on one machine's clock: the delivery time the test asked for and the record's timestamp, which
 * the producer takes as it sends.
 */
class DelayedDeliveryIntegrationTests {

	private static final String TABLE = "outbox_it_delayed";

	/** The table of the instances that tests share. */
	private static final String SHARED_TABLE = "outbox_it_delayed_shared";

	private static final int EVENTS = 10_000;

	private static final int KEYS = 100;

	/**
	 * The delays of the load test are spread over this long: well past the writes (a few seconds), so
	 * that most events wait in the table while others are written and published.
	 */
	private static final Duration SPREAD = Duration.ofSeconds(20);

	/** The delay of the events delayed by their annotation for a few seconds (see the event types below). */
	private static final Duration ANNOTATED_DELAY = Duration.ofSeconds(3);

	/** One instance per database for the tests that need no more, each test with keys of its own. */
	private static final Map<TestDatabase, SharedInstance> SHARED = new ConcurrentHashMap<>();

	private final JsonMapper json = new JsonMapper();

	@AfterAll
	static void stopTheSharedInstances() {
		SHARED.forEach((database, instance) -> {
			instance.context().close();
			database.dropTable(SHARED_TABLE);
		});
		SHARED.clear();
	}

	/**
	 * The load runs on PostgreSQL and MariaDB overlap: each spends most of its time waiting for its spread
	 * of delays to pass, which the other's can share.
	 */
	@Test
	void delayedEventsOfTwoInstancesArePublishedOnceEachAndNoneBeforeItsTime() throws Exception {
		ExecutorService runs = Executors.newFixedThreadPool(2);
		try {
			Future<?> postgresql = runs.submit(() -> loadRun(TestDatabase.POSTGRESQL));
			Future<?> mariadb = runs.submit(() -> loadRun(TestDatabase.MARIADB));
			List<Throwable> failures = new ArrayList<>();
			for (Future<?> run : List.of(postgresql, mariadb)) {
				try {
					run.get();
				}
				catch (ExecutionException ex) {
					failures.add(ex.getCause());
				}
			}
			if (!failures.isEmpty()) {
				// The first failure's message goes in the verdict's: a build's summary shows only that.
				AssertionError failed = new AssertionError("The load run failed on " + failures.size()
						+ " database(s), first: " + failures.get(0), failures.get(0));
				failures.stream().skip(1).forEach(failed::addSuppressed);
				throw failed;
			}
		}
		finally {
			runs.shutdownNow();
		}
	}

	private void loadRun(TestDatabase database) {
		String topic = topic("load-" + database.name().toLowerCase(Locale.ROOT), 3);
		database.dropTable(TABLE);
		ConfigurableApplicationContext first = start(database, topic);
		ConfigurableApplicationContext second = start(database, topic);
		ExecutorService writers = Executors.newFixedThreadPool(2);
		try (TimedRecords records = new TimedRecords(topic)) {
			// Both instances write half the events, in transactions of 100, each due at a random time in the
			// spread after it is raised; both relays publish them.
			Instant writing = Instant.now();
			Future<?> firstHalf = writers.submit(() -> write(first, 0, EVENTS / 2));
			Future<?> secondHalf = writers.submit(() -> write(second, EVENTS / 2, EVENTS));
			firstHalf.get();
			secondHalf.get();
			Duration written = Duration.between(writing, Instant.now());

			List<TimedRecord> received = await().atMost(SPREAD.plus(written).plusSeconds(120))
				.pollInterval(Duration.ofMillis(200))
				.until(records::poll, (all) -> all.size() >= EVENTS);

			assertThat(received).as("on %s", database)
				.extracting(TimedRecord::messageId)
				.doesNotHaveDuplicates()
				.hasSize(EVENTS);
			List<TimedRecord> early = received.stream().filter((record) -> record.lateness().isNegative()).toList();
			assertThat(early).as("published before their time on %s", database).isEmpty();
			report(database, received, written);
			assertThat(first.getBean(OutboxMonitoring.class).readBacklog().scheduled()).isZero();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("Writing the events failed on " + database, ex.getCause());
		}
		finally {
			writers.shutdownNow();
			second.close();
			first.close();
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void aDelayedEventIsPublishedByAnotherInstanceAfterTheOneThatWroteItStopped(TestDatabase database) {
		SharedInstance other = sharedInstance(database);
		Instant deliverAt = Instant.now().plus(Duration.ofHours(1));
		try (ConfigurableApplicationContext writer = start(database, SHARED_TABLE, other.topic())) {
			Reminder reminder = new Reminder("order-1", "pay", deliverAt.toEpochMilli());
			writer.getBean(TransactionTemplate.class)
				.executeWithoutResult((status) -> writer.getBean(Outbox.class).publish(reminder, deliverAt));
		}
		// Its time comes once the writer has stopped: two hours earlier, it was due an hour ago.
		String twoHours = (database == TestDatabase.POSTGRESQL) ? "INTERVAL '2 hours'" : "INTERVAL 2 HOUR";
		new JdbcTemplate(database.dataSource()).update("UPDATE " + SHARED_TABLE + " SET deliver_at = deliver_at - "
				+ twoHours + ", available_at = available_at - " + twoHours + " WHERE message_key = 'order-1'");
		Instant due = deliverAt.minus(Duration.ofHours(2));

		try (TimedRecords records = new TimedRecords(other.topic())) {
			OutboxMonitoring monitoring = other.context().getBean(OutboxMonitoring.class);
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> monitoring.list(EventStatus.PUBLISHED, 0, 100, true)
					.stream()
					.anyMatch((event) -> "order-1".equals(event.key())));
			List<TimedRecord> received = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> records.poll("order-1"), (all) -> !all.isEmpty());
			assertThat(records.poll("order-1")).as("published once").isEqualTo(received);
			assertThat(received).singleElement().satisfies((record) -> {
				assertThat(record.timestamp()).isAfterOrEqualTo(due);
				assertThat(record.value()).contains("pay");
			});
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void aDelayedEventDoesNotHoldBackTheLaterEventsOfItsKey(TestDatabase database) {
		SharedInstance instance = sharedInstance(database);
		try (TimedRecords records = new TimedRecords(instance.topic())) {
			Instant delayedAt = Instant.now();
			commit(instance.context(), new DelayedReminder("order-2", "delayed"));
			commit(instance.context(), new Undelayed("order-2", "later"));

			List<TimedRecord> received = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> records.poll("order-2"), (all) -> all.size() >= 2);

			assertThat(received).extracting(TimedRecord::name).containsExactly("later", "delayed");
			assertThat(received.get(1).timestamp()).isAfterOrEqualTo(delayedAt.plus(ANNOTATED_DELAY));
		}
	}

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void aDelayedEventThatHoldsItsKeyIsPublishedBeforeTheLaterEventsOfItsKey(TestDatabase database) {
		SharedInstance instance = sharedInstance(database);
		try (TimedRecords records = new TimedRecords(instance.topic())) {
			Instant delayedAt = Instant.now();
			commit(instance.context(), new HoldingReminder("order-3", "delayed"));
			commit(instance.context(), new Undelayed("order-3", "later"));
			commit(instance.context(), new Undelayed("order-4", "other key"));

			List<TimedRecord> received = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> records.poll("order-3", "order-4"), (all) -> all.size() >= 3);

			assertThat(received).extracting(TimedRecord::name).containsExactly("other key", "delayed", "later");
			assertThat(received.get(1).timestamp()).isAfterOrEqualTo(delayedAt.plus(ANNOTATED_DELAY));
		}
	}

	/**
	 * Also the rule of a route's delay: it counts from when the event is raised, not from the commit. The
	 * transaction goes on for a while after raising it, and the row, written at the commit, has that much
	 * less of the delay left (its due time minus its creation time, both on the database's clock).
	 */
	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void aDelayedEventWaitingForItsTimeIsScheduledNotBacklogAndCountsItsDelayFromWhenItWasRaised(
			TestDatabase database) {
		ConfigurableApplicationContext context = sharedInstance(database).context();
		Duration goesOn = Duration.ofMillis(50);
		context.getBean(TransactionTemplate.class).executeWithoutResult((status) -> {
			context.getBean(Outbox.class).publish(new HourLaterReminder("order-5", "in an hour"));
			Instant raised = Instant.now();
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(5))
				.until(() -> Instant.now().isAfter(raised.plus(goesOn)));
		});

		MeterRegistry meters = context.getBean(MeterRegistry.class);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> meters.get("outbox.backlog.scheduled").gauge().value() == 1
					&& meters.get("outbox.backlog.pending").gauge().value() == 0);
		assertThat(meters.get("outbox.backlog.oldest.age").timeGauge().value(TimeUnit.SECONDS)).isZero();
		assertThat(context.getBean(OutboxMonitoring.class).list(EventStatus.PENDING, 0, 10, false))
			.singleElement()
			.satisfies((event) -> assertThat(Duration.between(event.createdAt(), event.deliverAt()))
				.as("the delay left when the row was written")
				.isLessThanOrEqualTo(Duration.ofHours(1).minus(goesOn))
				.isGreaterThan(Duration.ofMinutes(59)));
	}

	private static SharedInstance sharedInstance(TestDatabase database) {
		return SHARED.computeIfAbsent(database, (key) -> {
			String topic = topic("shared-" + database.name().toLowerCase(Locale.ROOT), 1);
			database.dropTable(SHARED_TABLE);
			return new SharedInstance(start(database, SHARED_TABLE, topic, "outbox.backlog.refresh-interval=100ms"),
					topic);
		});
	}

	private static void write(ConfigurableApplicationContext context, int from, int to) {
		Outbox outbox = context.getBean(Outbox.class);
		TransactionTemplate transactions = context.getBean(TransactionTemplate.class);
		for (int start = from; start < to; start += 100) {
			int first = start;
			transactions.executeWithoutResult((status) -> IntStream.range(first, Math.min(first + 100, to)).forEach((i) -> {
				Instant deliverAt = Instant.now().plusMillis(ThreadLocalRandom.current().nextLong(SPREAD.toMillis()));
				outbox.publish(new Reminder("key-" + (i % KEYS), "reminder-" + i, deliverAt.toEpochMilli()), deliverAt);
			}));
		}
	}

	private static void commit(ConfigurableApplicationContext context, Object event) {
		context.getBean(TransactionTemplate.class)
			.executeWithoutResult((status) -> context.getBean(Outbox.class).publish(event));
	}

	/**
	 * Prints how late the events were published: the verdicts are about behaviour only, the lateness
	 * depends on the machine and what else runs on it.
	 */
	private static void report(TestDatabase database, List<TimedRecord> received, Duration written) {
		List<Long> lateness = new ArrayList<>(received.stream().map((record) -> record.lateness().toMillis()).toList());
		Collections.sort(lateness);
		System.out.printf("Delayed delivery lateness on %s, %d events due over %s, written by 2 instances in %d ms, "
				+ "published by both relays (poll interval 1s): min %d ms, p50 %d ms, p90 %d ms, p99 %d ms, "
				+ "max %d ms%n", database, lateness.size(), SPREAD, written.toMillis(), lateness.get(0),
				percentile(lateness, 50), percentile(lateness, 90), percentile(lateness, 99),
				lateness.get(lateness.size() - 1));
	}

	private static long percentile(List<Long> sorted, int percent) {
		return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * percent / 100.0) - 1));
	}

	private static String topic(String name, int partitions) {
		String topic = "it-delayed-" + name + "-" + UUID.randomUUID();
		TestKafka.createTopic(topic, partitions);
		return topic;
	}

	private static ConfigurableApplicationContext start(TestDatabase database, String topic) {
		return start(database, TABLE, topic);
	}

	private static ConfigurableApplicationContext start(TestDatabase database, String table, String topic,
			String... extraProperties) {
		List<String> properties = new ArrayList<>(List.of("test.topic=" + topic, "test.delayed-topic=" + topic,
				"outbox.table-name=" + table, "spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers()));
		properties.addAll(List.of(database.properties()));
		properties.addAll(List.of(extraProperties));
		return new SpringApplicationBuilder(OrdersTestApplication.class).web(WebApplicationType.NONE)
			.run(properties.stream().map((property) -> "--" + property).toArray(String[]::new));
	}

	/** An event due at the time it carries, published with {@link Outbox#publish(Object, Instant)}. */
	@OutboxEvent(destination = "${test.delayed-topic}", key = "key")
	record Reminder(String key, String name, long dueAtMillis) {
	}

	/** An event delayed by its annotation, which leaves its key's order. */
	@OutboxEvent(destination = "${test.delayed-topic}", key = "key", delay = "PT3S")
	record DelayedReminder(String key, String name) {
	}

	/** An event delayed by its annotation that holds back the later events of its key. */
	@OutboxEvent(destination = "${test.delayed-topic}", key = "key", delay = "3s", delayHoldsKey = true)
	record HoldingReminder(String key, String name) {
	}

	@OutboxEvent(destination = "${test.delayed-topic}", key = "key")
	record Undelayed(String key, String name) {
	}

	/** An event delayed by its annotation for longer than any test waits. */
	@OutboxEvent(destination = "${test.delayed-topic}", key = "key", delay = "PT1H")
	record HourLaterReminder(String key, String name) {
	}

	/** An instance that tests share, and the topic its events go to. */
	private record SharedInstance(ConfigurableApplicationContext context, String topic) {
	}

	/** A received record with the time the producer sent it. */
	private record TimedRecord(String messageId, String key, String value, String name, Instant timestamp,
			Instant dueAt) {

		Duration lateness() {
			return Duration.between(this.dueAt, this.timestamp);
		}

	}

	/** Reads a topic from its beginning with the records' timestamps. */
	private final class TimedRecords implements AutoCloseable {

		private final KafkaConsumer<String, String> consumer;

		private final List<TimedRecord> received = new ArrayList<>();

		TimedRecords(String topic) {
			Properties config = new Properties();
			config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
			config.put(ConsumerConfig.GROUP_ID_CONFIG, "delayed-" + UUID.randomUUID());
			config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
			config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
			this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
			this.consumer.assign(TopicRecorder.partitionsOf(this.consumer, topic));
		}

		List<TimedRecord> poll() {
			for (ConsumerRecord<String, String> record : this.consumer.poll(Duration.ofMillis(100))) {
				Header id = record.headers().lastHeader(OutboxHeaders.MESSAGE_ID);
				var payload = DelayedDeliveryIntegrationTests.this.json.readTree(record.value());
				Instant timestamp = Instant.ofEpochMilli(record.timestamp());
				Instant dueAt = payload.has("dueAtMillis") ? Instant.ofEpochMilli(payload.get("dueAtMillis").asLong())
						: timestamp;
				this.received.add(new TimedRecord(new String(id.value()), record.key(), record.value(),
						payload.get("name").asString(), timestamp, dueAt));
			}
			return List.copyOf(this.received);
		}

		/** The records of some keys only, of a topic that tests share. */
		List<TimedRecord> poll(String... keys) {
			List<String> wanted = List.of(keys);
			return poll().stream().filter((record) -> wanted.contains(record.key())).toList();
		}

		@Override
		public void close() {
			this.consumer.close();
		}

	}

}
