package dev.outboxstarter.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.RabbitTestBroker.QueueRecorder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Payloads in a format other than JSON, written by a payload serializer bean: stored as the bytes it wrote
 * with their content type, and published as those very bytes by the fast path and by the relay, to Kafka
 * and to RabbitMQ, with the content type and the schema a consumer needs, in the outbox format and as
 * CloudEvents. The format here is the test's own, with no registry: the registry formats have tests of
 * their own in the outbox-schema-registry module.
 */
@SpringBootTest(classes = { OrdersTestApplication.class, BinaryPayloadIntegrationTests.PrefixedFormatConfiguration.class },
		properties = { "test.topic=" + BinaryPayloadIntegrationTests.TOPIC, "outbox.table-name=" + BinaryPayloadIntegrationTests.TABLE,
				"outbox.relay.poll-interval=100ms", "outbox.cloudevents.source=/binary-tests" })
@DirtiesContext
class BinaryPayloadIntegrationTests {

	static final String TOPIC = "it-binary";

	static final String CLOUD_EVENTS_TOPIC = "it-binary-cloudevents";

	static final String EXCHANGE = "it-binary";

	static final String TABLE = "outbox_it_binary";

	private static final QueueRecorder queue;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 1);
		TestKafka.createTopic(CLOUD_EVENTS_TOPIC, 1);
		RabbitTestBroker.deleteExchange(EXCHANGE);
		RabbitTestBroker.declareExchange(EXCHANGE, "topic", false);
		queue = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-binary"), EXCHANGE, "shipped", Map.of());
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private Outbox outbox;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private OutboxMonitoring monitoring;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		RabbitTestBroker.register(registry, RabbitTestBroker.PORT);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@AfterAll
	static void cleanUp() {
		queue.close();
		RabbitTestBroker.deleteExchange(EXCHANGE);
	}

	@Test
	void theSerializersBytesAreStoredWithTheirContentTypeAndPublishedAsTheyAreToKafkaAndRabbitMq() {
		String parcel = "parcel-" + UUID.randomUUID();
		this.orders.place(parcel, new ParcelShipped(parcel));

		try (BinaryRecords topic = new BinaryRecords(TOPIC)) {
			ConsumerRecord<String, byte[]> onKafka = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll(parcel), (records) -> !records.isEmpty())
				.get(0);
			assertThat(onKafka.value()).isEqualTo(PrefixedFormat.bytes(TOPIC, parcel));
			assertThat(header(onKafka, OutboxHeaders.CONTENT_TYPE)).isEqualTo(PrefixedFormat.CONTENT_TYPE);
			assertThat(header(onKafka, OutboxHeaders.PAYLOAD_SCHEMA)).isEqualTo(PrefixedFormat.schema(TOPIC));
			assertThat(header(onKafka, OutboxHeaders.EVENT_TYPE)).isEqualTo("parcel-shipped");
			// As the endpoint and the console list it: in Base64, with its content type, never as text.
			StoredEvent listed = this.monitoring.find(UUID.fromString(header(onKafka, OutboxHeaders.MESSAGE_ID)), true);
			assertThat(listed.contentType()).isEqualTo(PrefixedFormat.CONTENT_TYPE);
			assertThat(Base64.getDecoder().decode(listed.payload())).isEqualTo(PrefixedFormat.bytes(TOPIC, parcel));
		}
		Message onRabbit = await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(queue::poll, (messages) -> !messages.isEmpty())
			.get(0);
		assertThat(onRabbit.getBody()).isEqualTo(PrefixedFormat.bytes(EXCHANGE + "/shipped", parcel));
		MessageProperties properties = onRabbit.getMessageProperties();
		assertThat(properties.getContentType()).isEqualTo(PrefixedFormat.CONTENT_TYPE);
		assertThat(properties.getContentEncoding()).isNull();
		assertThat((String) properties.getHeader(OutboxHeaders.PAYLOAD_SCHEMA))
			.isEqualTo(PrefixedFormat.schema(EXCHANGE + "/shipped"));

		List<Map<String, Object>> rows = this.jdbc.queryForList(
				"SELECT transport, payload, content_type FROM " + TABLE + " WHERE event_type = 'parcel-shipped' ORDER BY transport");
		assertThat(rows).extracting((row) -> row.get("transport"), (row) -> row.get("content_type"))
			.containsExactly(org.assertj.core.groups.Tuple.tuple("kafka", PrefixedFormat.CONTENT_TYPE),
					org.assertj.core.groups.Tuple.tuple("rabbit", PrefixedFormat.CONTENT_TYPE));
		assertThat(Base64.getDecoder().decode((String) rows.get(0).get("payload")))
			.isEqualTo(PrefixedFormat.bytes(TOPIC, parcel));
	}

	@Test
	void theRelayPublishesTheSameBytesAsTheFastPath() {
		String parcel = "parcel-" + UUID.randomUUID();
		// A delivery time a moment ahead leaves the event to the relay, which reads it back from its row.
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(new ParcelReturned(parcel),
				Instant.now().plusMillis(200)));

		try (BinaryRecords topic = new BinaryRecords(TOPIC)) {
			ConsumerRecord<String, byte[]> record = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll(parcel), (records) -> !records.isEmpty())
				.get(0);
			assertThat(record.value()).isEqualTo(PrefixedFormat.bytes(TOPIC, parcel));
			assertThat(header(record, OutboxHeaders.CONTENT_TYPE)).isEqualTo(PrefixedFormat.CONTENT_TYPE);
		}
	}

	@Test
	void aCloudEventCarriesTheFormatsContentTypeAndSchemaAsItsDataContentTypeAndDataSchema() {
		String parcel = "parcel-" + UUID.randomUUID();
		this.orders.place(parcel, new ParcelLost(parcel));

		Properties config = new Properties();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "binary-" + UUID.randomUUID());
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		try (KafkaConsumer<String, CloudEvent> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
				new CloudEventDeserializer())) {
			consumer.assign(TopicRecorder.partitionsOf(consumer, CLOUD_EVENTS_TOPIC));
			List<CloudEvent> received = new ArrayList<>();
			CloudEvent event = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> {
					consumer.poll(Duration.ofMillis(100)).forEach((record) -> received.add(record.value()));
					return received.stream()
						.filter((ce) -> ce.getData() != null
								&& new String(ce.getData().toBytes(), StandardCharsets.UTF_8).endsWith(parcel))
						.findFirst()
						.orElse(null);
				}, (found) -> found != null);
			assertThat(event.getType()).isEqualTo("parcel-lost");
			assertThat(event.getDataContentType()).isEqualTo(PrefixedFormat.CONTENT_TYPE);
			assertThat(event.getDataSchema()).hasToString(PrefixedFormat.schema(CLOUD_EVENTS_TOPIC));
			assertThat(event.getData().toBytes()).isEqualTo(PrefixedFormat.bytes(CLOUD_EVENTS_TOPIC, parcel));
		}
	}

	private static String header(ConsumerRecord<?, ?> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	@OutboxEvent(type = "parcel-shipped", destination = "${test.topic}", payloadFormat = "prefixed")
	@OutboxEvent(type = "parcel-shipped", transport = "rabbit", destination = EXCHANGE + "/shipped",
			payloadFormat = "prefixed")
	record ParcelShipped(String parcel) implements Parcel {
	}

	/** Claimed by the format for its type: its route names none. */
	@OutboxEvent(type = "parcel-returned", destination = "${test.topic}", key = "parcel")
	record ParcelReturned(String parcel) implements Parcel {
	}

	@OutboxEvent(type = "parcel-lost", destination = CLOUD_EVENTS_TOPIC, format = "cloudevents",
			payloadFormat = "prefixed")
	record ParcelLost(String parcel) implements Parcel {
	}

	interface Parcel {

		String parcel();

	}

	/**
	 * A binary format: a zero byte, the destination, another zero byte and the parcel, none of it
	 * valid as JSON. It claims the events of the {@link ParcelReturned} type.
	 */
	static final class PrefixedFormat implements OutboxPayloadSerializer {

		static final String CONTENT_TYPE = "application/x-prefixed";

		static byte[] bytes(String destination, String parcel) {
			return ("\0" + destination + "\0" + parcel).getBytes(StandardCharsets.UTF_8);
		}

		static String schema(String destination) {
			return "urn:prefixed:" + destination;
		}

		@Override
		public String format() {
			return "prefixed";
		}

		@Override
		public boolean serializesByDefault(Class<?> eventType) {
			return eventType == ParcelReturned.class;
		}

		@Override
		public SerializedPayload serialize(Object event, PayloadTarget target) {
			return new SerializedPayload(bytes(target.destination(), ((Parcel) event).parcel()), CONTENT_TYPE,
					schema(target.destination()));
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class PrefixedFormatConfiguration {

		@Bean
		PrefixedFormat prefixedFormat() {
			return new PrefixedFormat();
		}

	}

	/** Reads a topic from its beginning, values as bytes. */
	private static final class BinaryRecords implements AutoCloseable {

		private final KafkaConsumer<String, byte[]> consumer;

		private final List<ConsumerRecord<String, byte[]>> received = new ArrayList<>();

		BinaryRecords(String topic) {
			Properties config = new Properties();
			config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
			config.put(ConsumerConfig.GROUP_ID_CONFIG, "binary-" + UUID.randomUUID());
			config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
			this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
			this.consumer.assign(TopicRecorder.partitionsOf(this.consumer, topic));
		}

		/** The records whose value ends with the parcel. */
		List<ConsumerRecord<String, byte[]>> poll(String parcel) {
			this.consumer.poll(Duration.ofMillis(100)).forEach(this.received::add);
			byte[] suffix = ("\0" + parcel).getBytes(StandardCharsets.UTF_8);
			return this.received.stream().filter((record) -> endsWith(record.value(), suffix)).toList();
		}

		private static boolean endsWith(byte[] value, byte[] suffix) {
			if (value.length < suffix.length) {
				return false;
			}
			for (int i = 0; i < suffix.length; i++) {
				if (value[value.length - suffix.length + i] != suffix[i]) {
					return false;
				}
			}
			return true;
		}

		@Override
		public void close() {
			this.consumer.close();
		}

	}

}
