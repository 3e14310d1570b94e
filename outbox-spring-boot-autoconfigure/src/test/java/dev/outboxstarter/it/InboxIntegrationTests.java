package dev.outboxstarter.it;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.spi.InboxOutcomeListener;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.kafka.CloudEventSerializer;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.AbstractConsumerSeekAware;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The inbox with real Kafka consumers on PostgreSQL: each listener's effect (a row it inserts in its
 * transaction) happens once per outbox message, however often the message is delivered.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + InboxIntegrationTests.TOPIC, "outbox.table-name=" + InboxIntegrationTests.TABLE,
				"outbox.inbox.enabled=true", "outbox.inbox.table-name=" + InboxIntegrationTests.INBOX,
				"spring.kafka.consumer.auto-offset-reset=earliest" })
@Import(InboxIntegrationTests.Consumers.class)
class InboxIntegrationTests {

	static final String TOPIC = "it-inbox";

	static final String TABLE = "outbox_it_inbox";

	static final String INBOX = "inbox_it";

	static final String EFFECTS = "inbox_it_effect";

	static final String CLOUDEVENTS_TOPIC = "it-inbox-cloudevents";

	static final String CLOUDEVENT_SOURCES_TOPIC = "it-inbox-cloudevent-sources";

	static final String BINARY_TOPIC = "it-inbox-binary";

	private static final JsonMapper json = new JsonMapper();

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestDatabase.POSTGRESQL.dropTable(INBOX);
		TestDatabase.POSTGRESQL.dropTable(EFFECTS);
		TestKafka.createTopic(TOPIC, 3);
		TestKafka.createTopic(CLOUDEVENTS_TOPIC, 1);
		TestKafka.createTopic(CLOUDEVENT_SOURCES_TOPIC, 1);
		TestKafka.createTopic(BINARY_TOPIC, 1);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private Billing billing;

	@Autowired
	private Outcomes outcomes;

	@Autowired
	private Auditing auditing;

	@Autowired
	private SourcedAuditing sourcedAuditing;

	@Autowired
	private Parcels parcels;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void recordsDeliveredAgainAfterASeekToTheBeginningHaveTheirEffectOnce() {
		String prefix = "seek-" + UUID.randomUUID();
		place(prefix, 5);
		await().atMost(Duration.ofSeconds(30)).until(() -> effects("billing", prefix) == 5);
		List<String> ids = messageIds("billing", prefix);
		double duplicatesBefore = counter("outbox.inbox.duplicates", "billing");

		this.billing.seekToBeginning();

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.outcomes.duplicates("billing").containsAll(ids));
		assertThat(counter("outbox.inbox.duplicates", "billing") - duplicatesBefore).isGreaterThanOrEqualTo(5);
		assertThat(effects("billing", prefix)).isEqualTo(5);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(DISTINCT message_id) FROM " + EFFECTS
				+ " WHERE consumer = 'billing' AND customer LIKE ?", Integer.class, prefix + "%")).isEqualTo(5);
	}

	@Test
	void twoConsumerInstancesReceivingTheSameMessagesProcessEachOnce() {
		String prefix = "pair-" + UUID.randomUUID();
		place(prefix, 20);
		// Two listener containers in different groups receive every message; they share the consumer name:
		// one processes each message, the other finds it processed (or waits for the first's commit).
		await().atMost(Duration.ofSeconds(30)).until(() -> effects("shipping", prefix) == 20);
		List<String> ids = messageIds("shipping", prefix);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.outcomes.duplicates("shipping").containsAll(ids));
		assertThat(effects("shipping", prefix)).isEqualTo(20);
		assertThat(this.outcomes.processed("shipping")).as("processed once each").containsOnlyOnce(ids.toArray(String[]::new));
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + INBOX + " WHERE consumer = 'shipping' "
				+ "AND message_id IN (SELECT message_id FROM " + EFFECTS + " WHERE customer LIKE ?)", Integer.class,
				prefix + "%"))
			.isEqualTo(20);
	}

	@Test
	void aHandlerThatThrowsRecordsNothingAndTheRedeliveredMessageIsProcessedOnce() {
		String prefix = "fail-once-" + UUID.randomUUID();
		double processedBefore = counter("outbox.inbox.processed", "billing");
		place(prefix, 1);
		await().atMost(Duration.ofSeconds(30)).until(() -> effects("billing", prefix) == 1);
		assertThat(this.billing.failures(prefix)).as("the first delivery failed").isEqualTo(1);
		assertThat(this.billing.deliveries(prefix)).as("and the message came again").isEqualTo(2);
		assertThat(counter("outbox.inbox.processed", "billing") - processedBefore).isEqualTo(1);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + INBOX + " WHERE consumer = 'billing' "
				+ "AND message_id IN (SELECT message_id FROM " + EFFECTS + " WHERE customer LIKE ?)", Integer.class,
				prefix + "%"))
			.isEqualTo(1);
	}

	@Test
	void aCloudEventOfAnotherProducerDeliveredTwiceHasItsEffectOnceByItsCeId() throws Exception {
		String twice = "ce-twice-" + UUID.randomUUID();
		String once = "ce-once-" + UUID.randomUUID();
		CloudEvent event = cloudEvent(twice);
		try (KafkaProducer<String, CloudEvent> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()), new StringSerializer(),
				new CloudEventSerializer())) {
			producer.send(new ProducerRecord<>(CLOUDEVENTS_TOPIC, event)).get();
			producer.send(new ProducerRecord<>(CLOUDEVENTS_TOPIC, event)).get();
			producer.send(new ProducerRecord<>(CLOUDEVENTS_TOPIC, cloudEvent(once))).get();
		}

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.outcomes.processed("auditing").contains(once));
		// The partition delivers in order: the copy came before the last event.
		assertThat(this.outcomes.duplicates("auditing")).containsExactly(twice);
		assertThat(this.outcomes.processed("auditing")).containsExactly(twice, once);
		assertThat(this.auditing.delivered()).containsExactly(twice, once);
	}

	/**
	 * A payload in a binary format (an Avro or Protobuf payload as the outbox publishes it) is
	 * deduplicated like any other: by the outbox-message-id header, whatever the bytes.
	 */
	@Test
	void aBinaryPayloadDeliveredTwiceHasItsEffectOnceAndReachesTheListenerAsItsBytes() throws Exception {
		String twice = UUID.randomUUID().toString();
		String once = UUID.randomUUID().toString();
		byte[] avroLike = { 0, 0, 0, 0, 7, (byte) 0xff, (byte) 0xfe, 'p', 0 };
		try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()), new StringSerializer(),
				new ByteArraySerializer())) {
			producer.send(binaryRecord(twice, avroLike)).get();
			producer.send(binaryRecord(twice, avroLike)).get();
			producer.send(binaryRecord(once, avroLike)).get();
		}

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.outcomes.processed("parcels").contains(once));
		assertThat(this.outcomes.duplicates("parcels")).containsExactly(twice);
		assertThat(this.outcomes.processed("parcels")).containsExactly(twice, once);
		assertThat(this.parcels.delivered()).hasSize(2).allSatisfy((bytes) -> assertThat(bytes).isEqualTo(avroLike));
	}

	private static ProducerRecord<String, byte[]> binaryRecord(String messageId, byte[] payload) {
		ProducerRecord<String, byte[]> record = new ProducerRecord<>(BINARY_TOPIC, "parcel-1", payload);
		record.headers().add(OutboxHeaders.MESSAGE_ID, messageId.getBytes(StandardCharsets.UTF_8));
		record.headers().add(OutboxHeaders.CONTENT_TYPE, "application/avro".getBytes(StandardCharsets.UTF_8));
		return record;
	}

	@Test
	void cloudEventsOfTwoProducersWithTheSameIdAreTwoMessagesAndACopyOfEitherIsSkipped() throws Exception {
		String id = "1001-" + UUID.randomUUID();
		String last = "last-" + UUID.randomUUID();
		try (KafkaProducer<String, CloudEvent> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()), new StringSerializer(),
				new CloudEventSerializer())) {
			producer.send(new ProducerRecord<>(CLOUDEVENT_SOURCES_TOPIC, cloudEvent(id, "/inventory"))).get();
			producer.send(new ProducerRecord<>(CLOUDEVENT_SOURCES_TOPIC, cloudEvent(id, "/payments"))).get();
			producer.send(new ProducerRecord<>(CLOUDEVENT_SOURCES_TOPIC, cloudEvent(id, "/payments"))).get();
			producer.send(new ProducerRecord<>(CLOUDEVENT_SOURCES_TOPIC, cloudEvent(last, "/inventory"))).get();
		}

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.outcomes.processed("audit-sources").contains(last));
		assertThat(this.sourcedAuditing.delivered()).containsExactly("/inventory " + id, "/payments " + id,
				"/inventory " + last);
		assertThat(this.outcomes.duplicates("audit-sources")).containsExactly(id);
	}

	private static CloudEvent cloudEvent(String id) {
		return cloudEvent(id, "/another-service");
	}

	private static CloudEvent cloudEvent(String id, String source) {
		return CloudEventBuilder.v1()
			.withId(id)
			.withSource(URI.create(source))
			.withType("com.acme.audit.entry-recorded")
			.withDataContentType("application/json")
			.withData("{\"entry\":1}".getBytes(StandardCharsets.UTF_8))
			.build();
	}

	private void place(String prefix, int count) {
		for (int i = 0; i < count; i++) {
			this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1));
		}
	}

	private int effects(String consumer, String prefix) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + EFFECTS + " WHERE consumer = ? AND customer LIKE ?",
				Integer.class, consumer, prefix + "%");
	}

	private List<String> messageIds(String consumer, String prefix) {
		return this.jdbc.queryForList("SELECT message_id FROM " + EFFECTS + " WHERE consumer = ? AND customer LIKE ?",
				String.class, consumer, prefix + "%");
	}

	private double counter(String name, String consumer) {
		var counter = this.meters.find(name).tag("consumer", consumer).counter();
		return (counter != null) ? counter.count() : 0;
	}

	static String customer(ConsumerRecord<String, String> record) {
		return json.readTree(record.value()).get("customer").asString();
	}

	static String messageId(ConsumerRecord<String, String> record) {
		return new String(record.headers().lastHeader(OutboxHeaders.MESSAGE_ID).value(), StandardCharsets.UTF_8);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Consumers {

		@Bean
		Billing billing(JdbcTemplate jdbc) {
			jdbc.execute("CREATE TABLE IF NOT EXISTS " + EFFECTS
					+ " (consumer VARCHAR(64), message_id VARCHAR(64), customer VARCHAR(255))");
			return new Billing(jdbc);
		}

		@Bean
		Shipping shipping(JdbcTemplate jdbc) {
			return new Shipping(jdbc);
		}

		@Bean
		Outcomes outcomes() {
			return new Outcomes();
		}

		@Bean
		Auditing auditing() {
			return new Auditing();
		}

		@Bean
		Parcels parcels() {
			return new Parcels();
		}

		@Bean
		SourcedAuditing sourcedAuditing() {
			return new SourcedAuditing();
		}

	}

	/** One consumer group; its effect fails once for customers named fail-once-*. */
	static class Billing extends AbstractConsumerSeekAware {

		private final JdbcTemplate jdbc;

		private final List<String> delivered = new CopyOnWriteArrayList<>();

		private final List<String> failed = new CopyOnWriteArrayList<>();

		Billing(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@KafkaListener(id = "inbox-billing", topics = TOPIC, groupId = "inbox-billing")
		@IdempotentConsumer("billing")
		public void onOrder(ConsumerRecord<String, String> record) {
			String customer = customer(record);
			this.delivered.add(customer);
			this.jdbc.update("INSERT INTO " + EFFECTS + " VALUES ('billing', ?, ?)", messageId(record), customer);
			if (customer.startsWith("fail-once-") && !this.failed.contains(customer)) {
				this.failed.add(customer);
				throw new IllegalStateException("billing failed once for " + customer);
			}
		}

		int deliveries(String prefix) {
			return (int) this.delivered.stream().filter((customer) -> customer.startsWith(prefix)).count();
		}

		int failures(String prefix) {
			return (int) this.failed.stream().filter((customer) -> customer.startsWith(prefix)).count();
		}

	}

	/** Consumes CloudEvents that carry no outbox header: the inbox takes their ce_id as the message id. */
	static class Auditing {

		private final List<String> delivered = new CopyOnWriteArrayList<>();

		@KafkaListener(id = "inbox-auditing", topics = CLOUDEVENTS_TOPIC, groupId = "inbox-auditing")
		@IdempotentConsumer("auditing")
		public void onEntry(ConsumerRecord<String, String> record) {
			this.delivered.add(new String(record.headers().lastHeader("ce_id").value(), StandardCharsets.UTF_8));
		}

		// Through a method: the test holds the class-based proxy, whose own fields are unused.
		public List<String> delivered() {
			return this.delivered;
		}

	}

	/** Consumes CloudEvents of several producers, whose ids are unique only per source. */
	static class SourcedAuditing {

		private final List<String> delivered = new CopyOnWriteArrayList<>();

		@KafkaListener(id = "inbox-audit-sources", topics = CLOUDEVENT_SOURCES_TOPIC, groupId = "inbox-audit-sources")
		@IdempotentConsumer("audit-sources")
		public void onEntry(ConsumerRecord<String, String> record) {
			this.delivered.add(header(record, "ce_source") + " " + header(record, "ce_id"));
		}

		public List<String> delivered() {
			return this.delivered;
		}

		private static String header(ConsumerRecord<String, String> record, String name) {
			return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
		}

	}

	/** Consumes binary payloads, as a registry's deserializer would read them. */
	static class Parcels {

		private final List<byte[]> delivered = new CopyOnWriteArrayList<>();

		@KafkaListener(id = "inbox-parcels", topics = BINARY_TOPIC, groupId = "inbox-parcels",
				properties = "value.deserializer=org.apache.kafka.common.serialization.ByteArrayDeserializer")
		@IdempotentConsumer("parcels")
		public void onParcel(ConsumerRecord<String, byte[]> record) {
			this.delivered.add(record.value());
		}

		public List<byte[]> delivered() {
			return this.delivered;
		}

	}

	/** What the inbox reported, by consumer. */
	static class Outcomes implements InboxOutcomeListener {

		private final List<String> processed = new CopyOnWriteArrayList<>();

		private final List<String> duplicates = new CopyOnWriteArrayList<>();

		@Override
		public void processed(String consumer, String messageId) {
			this.processed.add(consumer + "/" + messageId);
		}

		@Override
		public void duplicate(String consumer, String messageId) {
			this.duplicates.add(consumer + "/" + messageId);
		}

		List<String> processed(String consumer) {
			return idsOf(this.processed, consumer);
		}

		List<String> duplicates(String consumer) {
			return idsOf(this.duplicates, consumer);
		}

		private static List<String> idsOf(List<String> outcomes, String consumer) {
			return outcomes.stream()
				.filter((outcome) -> outcome.startsWith(consumer + "/"))
				.map((outcome) -> outcome.substring(consumer.length() + 1))
				.toList();
		}

	}

	/** Two consumer groups under one consumer name, as two instances of one service would be. */
	static class Shipping {

		private final JdbcTemplate jdbc;

		Shipping(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@KafkaListener(id = "inbox-shipping-1", topics = TOPIC, groupId = "inbox-shipping-1")
		@IdempotentConsumer("shipping")
		public void first(ConsumerRecord<String, String> record) {
			handle(record);
		}

		@KafkaListener(id = "inbox-shipping-2", topics = TOPIC, groupId = "inbox-shipping-2")
		@IdempotentConsumer("shipping")
		public void second(ConsumerRecord<String, String> record) {
			handle(record);
		}

		private void handle(ConsumerRecord<String, String> record) {
			this.jdbc.update("INSERT INTO " + EFFECTS + " VALUES ('shipping', ?, ?)", messageId(record),
					customer(record));
		}

	}

}
