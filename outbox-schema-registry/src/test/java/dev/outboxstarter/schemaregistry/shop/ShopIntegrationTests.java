package dev.outboxstarter.schemaregistry.shop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.schemaregistry.proto.ShipmentDispatched;
import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.RabbitTestBroker.QueueRecorder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaDeserializer;
import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * An application with the starter and this module, on PostgreSQL: an Avro event committed with a
 * business row arrives on a real Kafka topic and through a real RabbitMQ exchange, a Protobuf one on a
 * Kafka topic, and consumers read them with Apicurio's deserializers against the real registry, with no
 * outbox code.
 */
@SpringBootTest(classes = ShopApplication.class,
		properties = { "outbox.table-name=" + ShopIntegrationTests.OUTBOX_TABLE, "outbox.relay.poll-interval=100ms",
				"outbox.cloudevents.source=/shop",
				"outbox.routes[dev.outboxstarter.schemaregistry.proto.ShipmentDispatched].destination="
						+ ShopIntegrationTests.SHIPMENTS_TOPIC,
				"outbox.routes[dev.outboxstarter.schemaregistry.proto.ShipmentDispatched].key=orderId" })
class ShopIntegrationTests {

	static final String OUTBOX_TABLE = "schema_registry_shop_outbox";

	private static final String TOPIC = "schema-registry-shop-orders";

	static final String SHIPMENTS_TOPIC = "schema-registry-shop-shipments";

	private static final String CLOUD_EVENTS_TOPIC = "schema-registry-shop-cloudevents";

	private static final String EXCHANGE = "schema-registry-shop";

	private static final SchemaRegistryProcess registry = SchemaRegistryProcess.shared();

	private static final QueueRecorder queue;

	static {
		TestDatabase.POSTGRESQL.dropTable(OUTBOX_TABLE);
		Shipping.createTable(TestDatabase.POSTGRESQL.dataSource());
		TestKafka.createTopic(TOPIC, 1);
		TestKafka.createTopic(CLOUD_EVENTS_TOPIC, 1);
		TestKafka.createTopic(SHIPMENTS_TOPIC, 1);
		RabbitTestBroker.deleteExchange(EXCHANGE);
		RabbitTestBroker.declareExchange(EXCHANGE, "topic", false);
		queue = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("schema-registry-shop"), EXCHANGE,
				"order.shipped", Map.of());
	}

	@Autowired
	private Shipping shipping;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry properties) {
		properties.add("outbox.schema-registry.url", registry::registryApiUrl);
		properties.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		RabbitTestBroker.register(properties, RabbitTestBroker.PORT);
		TestDatabase.POSTGRESQL.register(properties);
	}

	@AfterAll
	static void cleanUp() {
		queue.close();
		RabbitTestBroker.deleteExchange(EXCHANGE);
	}

	@Test
	void anAvroEventCommittedWithTheShipmentIsReadFromKafkaWithApicuriosDeserializer() {
		String order = "order-" + UUID.randomUUID();
		this.shipping.ship(order, "tortoise-express");

		try (KafkaConsumer<String, OrderShipped> consumer = new KafkaConsumer<>(consumerConfig(),
				new StringDeserializer(), avroDeserializer())) {
			consumer.assign(TopicRecorder.partitionsOf(consumer, TOPIC));
			ConsumerRecord<String, OrderShipped> record = awaitRecord(consumer, order);
			assertThat(record.value())
				.isEqualTo(OrderShipped.newBuilder().setOrderId(order).setCarrier("tortoise-express").build());
			assertThat(header(record, OutboxHeaders.CONTENT_TYPE)).isEqualTo("application/avro");
			assertThat(header(record, OutboxHeaders.PAYLOAD_SCHEMA))
				.startsWith(registry.registryApiUrl() + "/ids/contentIds/");
		}
	}

	@Test
	void anAvroEventCommittedWithTheShipmentIsReadFromRabbitMqWithApicuriosDeserializer() {
		String order = "order-" + UUID.randomUUID();
		this.shipping.ship(order, "hare-freight");

		try (AvroKafkaDeserializer<OrderShipped> deserializer = avroDeserializer()) {
			Message message = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> queue.poll()
					.stream()
					.filter((received) -> order.equals(deserializer.deserialize(EXCHANGE, received.getBody()).getOrderId()))
					.findFirst()
					.orElse(null), (found) -> found != null);
			assertThat(deserializer.deserialize(EXCHANGE, message.getBody()).getCarrier()).isEqualTo("hare-freight");
			assertThat(message.getMessageProperties().getContentType()).isEqualTo("application/avro");
		}
	}

	@Test
	void aProtobufEventRoutedByPropertiesIsReadFromKafkaWithApicuriosDeserializer() {
		String order = "order-" + UUID.randomUUID();
		this.shipping.dispatch(order, "shipment-1", 3);

		ProtobufKafkaDeserializer<ShipmentDispatched> deserializer = new ProtobufKafkaDeserializer<>();
		deserializer.configure(Map.of(SerdeConfig.REGISTRY_URL, registry.registryApiUrl(), SerdeConfig.ENABLE_HEADERS,
				false, SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, true, SerdeConfig.USE_ID, "contentId",
				SerdeConfig.DESERIALIZER_SPECIFIC_VALUE_RETURN_CLASS, ShipmentDispatched.class.getName()), false);
		try (KafkaConsumer<String, ShipmentDispatched> consumer = new KafkaConsumer<>(consumerConfig(),
				new StringDeserializer(), deserializer)) {
			consumer.assign(TopicRecorder.partitionsOf(consumer, SHIPMENTS_TOPIC));
			List<ConsumerRecord<String, ShipmentDispatched>> records = new ArrayList<>();
			ConsumerRecord<String, ShipmentDispatched> record = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> {
					consumer.poll(Duration.ofMillis(100)).forEach(records::add);
					return records.stream().filter((received) -> order.equals(received.key())).findFirst().orElse(null);
				}, (found) -> found != null);
			assertThat(record.value()).isEqualTo(
					ShipmentDispatched.newBuilder().setOrderId(order).setShipmentId("shipment-1").setParcels(3).build());
			assertThat(header(record, OutboxHeaders.CONTENT_TYPE)).isEqualTo("application/x-protobuf");
		}
	}

	@Test
	void aCloudEventNamesTheRegisteredSchemaAsItsDataSchema() {
		String order = "order-" + UUID.randomUUID();
		this.shipping.ship(order, "snail-mail");

		try (KafkaConsumer<String, CloudEvent> consumer = new KafkaConsumer<>(consumerConfig(),
				new StringDeserializer(), new CloudEventDeserializer());
				AvroKafkaDeserializer<OrderShipped> deserializer = avroDeserializer()) {
			consumer.assign(TopicRecorder.partitionsOf(consumer, CLOUD_EVENTS_TOPIC));
			List<CloudEvent> received = new ArrayList<>();
			CloudEvent event = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> {
					consumer.poll(Duration.ofMillis(100)).forEach((record) -> received.add(record.value()));
					return received.stream()
						.filter((ce) -> order.equals(ce.getSubject()) || order.equals(
								deserializer.deserialize(CLOUD_EVENTS_TOPIC, ce.getData().toBytes()).getOrderId()))
						.findFirst()
						.orElse(null);
				}, (found) -> found != null);
			assertThat(event.getType()).isEqualTo("order-shipped");
			assertThat(event.getDataContentType()).isEqualTo("application/avro");
			assertThat(event.getDataSchema()).isNotNull();
			assertThat(event.getDataSchema().toString()).startsWith(registry.registryApiUrl() + "/ids/contentIds/");
			assertThat(deserializer.deserialize(CLOUD_EVENTS_TOPIC, event.getData().toBytes()).getCarrier())
				.isEqualTo("snail-mail");
		}
	}

	@Test
	void aRolledBackShipmentPublishesNothing() {
		String refused = "order-" + UUID.randomUUID();
		String accepted = "order-" + UUID.randomUUID();
		assertThatIllegalStateException().isThrownBy(() -> this.shipping.shipThenFail(refused, "tortoise-express"));
		this.shipping.ship(accepted, "tortoise-express");

		try (KafkaConsumer<String, OrderShipped> consumer = new KafkaConsumer<>(consumerConfig(),
				new StringDeserializer(), avroDeserializer())) {
			consumer.assign(TopicRecorder.partitionsOf(consumer, TOPIC));
			// The later shipment of the same topic and partition arrives after the refused one would have.
			List<ConsumerRecord<String, OrderShipped>> records = new ArrayList<>();
			await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
				consumer.poll(Duration.ofMillis(100)).forEach(records::add);
				return records.stream().anyMatch((record) -> accepted.equals(record.key()));
			});
			assertThat(records).noneMatch((record) -> refused.equals(record.key()));
		}
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + OUTBOX_TABLE + " WHERE message_key = ?",
				Integer.class, refused)).isZero();
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + Shipping.TABLE + " WHERE order_id = ?",
				Integer.class, refused)).isZero();
	}

	@Test
	void anEventWhoseSchemaTheRegistryRefusesKeepsTheShipmentFromCommitting() throws Exception {
		String topic = "schema-registry-shop-strict-" + UUID.randomUUID().toString().substring(0, 8);
		String subject = topic + "-value";
		// The subject's earlier version has a numeric carrier: a text one breaks BACKWARD compatibility.
		HttpClient http = HttpClient.newHttpClient();
		String earlier = "{\"type\": \"record\", \"name\": \"OrderShipped\", \"namespace\": "
				+ "\"dev.outboxstarter.schemaregistry.shop\", \"fields\": [{\"name\": \"orderId\", \"type\": "
				+ "\"string\"}, {\"name\": \"carrier\", \"type\": \"int\"}]}";
		for (HttpRequest request : List.of(
				HttpRequest.newBuilder(URI.create(registry.confluentCompatibleApiUrl() + "/subjects/" + subject + "/versions"))
					.header("Content-Type", "application/vnd.schemaregistry.v1+json")
					.POST(HttpRequest.BodyPublishers.ofString(
							"{\"schema\": \"" + earlier.replace("\"", "\\\"") + "\"}"))
					.build(),
				HttpRequest.newBuilder(URI.create(registry.confluentCompatibleApiUrl() + "/config/" + subject))
					.header("Content-Type", "application/vnd.schemaregistry.v1+json")
					.PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\": \"BACKWARD\"}"))
					.build())) {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as("%s: %s", request.uri(), response.body()).isEqualTo(200);
		}
		String order = "order-" + UUID.randomUUID();

		assertThatException().isThrownBy(() -> this.shipping.shipAnnouncingOn(topic, order, "tortoise-express"))
			.withStackTraceContaining("subject '" + subject + "'")
			.withStackTraceContaining("COMPATIBILITY=BACKWARD");
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + Shipping.TABLE + " WHERE order_id = ?",
				Integer.class, order)).isZero();
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + OUTBOX_TABLE + " WHERE message_key = ?",
				Integer.class, order)).isZero();
	}

	private static ConsumerRecord<String, OrderShipped> awaitRecord(KafkaConsumer<String, OrderShipped> consumer,
			String order) {
		List<ConsumerRecord<String, OrderShipped>> records = new ArrayList<>();
		return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
			consumer.poll(Duration.ofMillis(100)).forEach(records::add);
			return records.stream().filter((record) -> order.equals(record.key())).findFirst().orElse(null);
		}, (found) -> found != null);
	}

	/**
	 * Apicurio's deserializer as a consumer of the Confluent wire format configures it.
	 */
	private static AvroKafkaDeserializer<OrderShipped> avroDeserializer() {
		AvroKafkaDeserializer<OrderShipped> deserializer = new AvroKafkaDeserializer<>();
		deserializer.configure(Map.of(SerdeConfig.REGISTRY_URL, registry.registryApiUrl(), SerdeConfig.ENABLE_HEADERS,
				false, SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, true, SerdeConfig.USE_ID, "contentId",
				AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, true), false);
		return deserializer;
	}

	private static Properties consumerConfig() {
		Properties config = new Properties();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers());
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "schema-registry-shop-" + UUID.randomUUID());
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		return config;
	}

	private static String header(ConsumerRecord<?, ?> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

}
