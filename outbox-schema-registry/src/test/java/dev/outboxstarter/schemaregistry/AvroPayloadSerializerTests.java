package dev.outboxstarter.schemaregistry;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outboxstarter.schemaregistry.avro.OrderPlaced;
import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Avro payloads written against a real Apicurio Registry and read back as its consumers read them: by
 * Apicurio's deserializer and through the registry's APIs, with no outbox code.
 */
class AvroPayloadSerializerTests {

	private final SchemaRegistryProcess registry = SchemaRegistryProcess.shared();

	private final String run = UUID.randomUUID().toString().substring(0, 8);

	private AvroPayloadSerializer serializer;

	@AfterEach
	void close() {
		if (this.serializer != null) {
			this.serializer.close();
		}
	}

	@Test
	void generatedRecordIsReadBackAsTheGeneratedClassByApicuriosDeserializer() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		OrderPlaced order = order("order-1");
		String topic = "orders-" + this.run;

		SerializedPayload payload = this.serializer.serialize(order, kafka(topic));

		assertThat(payload.contentType()).isEqualTo("application/avro");
		Map<String, Object> settings = RegistryApis.consumerSettings(this.registry, WireFormat.CONFLUENT);
		settings.put(AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
		try (AvroKafkaDeserializer<OrderPlaced> deserializer = new AvroKafkaDeserializer<>()) {
			deserializer.configure(settings, false);
			assertThat(deserializer.deserialize(topic, payload.bytes())).isEqualTo(order);
		}
	}

	@Test
	void confluentWireFormatNamesTheIdThatTheConfluentCompatibleApiGivesTheSubjectsSchema() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		String topic = "orders-" + this.run;

		SerializedPayload payload = this.serializer.serialize(order("order-2"), kafka(topic));

		ByteBuffer bytes = ByteBuffer.wrap(payload.bytes());
		assertThat(bytes.get()).isZero();
		int id = bytes.getInt();
		JsonNode latest = RegistryApis
			.getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + topic + "-value/versions/latest");
		assertThat(latest.get("id").asInt()).isEqualTo(id);
		JsonNode byId = RegistryApis.getJson(this.registry.confluentCompatibleApiUrl() + "/schemas/ids/" + id);
		assertThat(new Schema.Parser().parse(byId.get("schema").asText())).isEqualTo(OrderPlaced.getClassSchema());
		// The rest is the record's Avro binary encoding, nothing else.
		assertThat(bytes.remaining()).isEqualTo(payload.bytes().length - 5);
		assertThat(payload.schema()).isEqualTo(this.registry.registryApiUrl() + "/ids/contentIds/" + id);
		assertThat(new Schema.Parser().parse(RegistryApis.get(payload.schema())))
			.isEqualTo(OrderPlaced.getClassSchema());
	}

	@Test
	void genericRecordInApicuriosWireFormatIsReadBackByTheDeserializerAsConfiguredByDefault() {
		this.serializer = serializer(WireFormat.APICURIO, Map.of());
		Schema schema = new Schema.Parser().parse("""
				{"type": "record", "name": "InvoiceIssued", "namespace": "dev.outboxstarter.schemaregistry.generic",
				 "fields": [{"name": "invoiceId", "type": "string"}, {"name": "total", "type": "long"}]}
				""");
		GenericRecord invoice = new GenericData.Record(schema);
		invoice.put("invoiceId", "invoice-1");
		invoice.put("total", 1250L);
		String topic = "invoices-" + this.run;

		SerializedPayload payload = this.serializer.serialize(invoice, kafka(topic));

		ByteBuffer bytes = ByteBuffer.wrap(payload.bytes());
		assertThat(bytes.get()).isZero();
		long globalId = bytes.getLong();
		assertThat(payload.schema()).isEqualTo(this.registry.registryApiUrl() + "/ids/globalIds/" + globalId);
		assertThat(new Schema.Parser().parse(RegistryApis.get(payload.schema()))).isEqualTo(schema);
		try (AvroKafkaDeserializer<GenericRecord> deserializer = new AvroKafkaDeserializer<>()) {
			deserializer.configure(Map.of(SerdeConfig.REGISTRY_URL, this.registry.registryApiUrl()), false);
			GenericRecord read = deserializer.deserialize(topic, payload.bytes());
			assertThat(read.get("invoiceId")).hasToString("invoice-1");
			assertThat(read.get("total")).isEqualTo(1250L);
		}
	}

	@Test
	void aRabbitDestinationsSubjectIsTheExchangeAndRoutingKeyJoinedByADot() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		String exchange = "orders-" + this.run;

		SerializedPayload payload = this.serializer.serialize(order("order-3"),
				new PayloadTarget("OrderPlaced", "rabbit", exchange + "/order.placed"));

		JsonNode latest = RegistryApis.getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + exchange
				+ ".order.placed-value/versions/latest");
		assertThat(latest.get("id").asInt()).isEqualTo(ByteBuffer.wrap(payload.bytes(), 1, 4).getInt());
	}

	@Test
	void theSameSchemaWrittenToTwoTopicsIsRegisteredUnderBothSubjects() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		String first = "orders-" + this.run;
		String second = "archived-orders-" + this.run;

		this.serializer.serialize(order("order-4"), kafka(first));
		this.serializer.serialize(order("order-4"), kafka(second));

		for (String subject : new String[] { first + "-value", second + "-value" }) {
			JsonNode latest = RegistryApis
				.getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + subject + "/versions/latest");
			assertThat(new Schema.Parser().parse(latest.get("schema").asText())).isEqualTo(OrderPlaced.getClassSchema());
		}
	}

	@Test
	void aConsumerOfThePreviousSchemaReadsAnEventOfACompatibleNewVersion() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		String topic = "evolving-orders-" + this.run;
		RegistryApis.putCompatibility(this.registry, topic + "-value", "BACKWARD");
		this.serializer.serialize(order("order-5"), kafka(topic));

		// Version 2 of OrderPlaced: a field with a default, compatible under BACKWARD.
		Schema second = withField(OrderPlaced.getClassSchema(),
				"{\"name\": \"currency\", \"type\": \"string\", \"default\": \"EUR\"}");
		GenericRecord revised = new GenericData.Record(second);
		revised.put("orderId", "order-6");
		revised.put("customer", "ada");
		revised.put("amount", 4200L);
		revised.put("currency", "CHF");
		SerializedPayload payload = this.serializer.serialize(revised, kafka(topic));

		JsonNode versions = RegistryApis
			.getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + topic + "-value/versions");
		assertThat(versions).hasSize(2);
		// The consumer still has the generated class of version 1.
		Map<String, Object> settings = RegistryApis.consumerSettings(this.registry, WireFormat.CONFLUENT);
		settings.put(AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
		try (AvroKafkaDeserializer<OrderPlaced> deserializer = new AvroKafkaDeserializer<>()) {
			deserializer.configure(settings, false);
			assertThat(deserializer.deserialize(topic, payload.bytes())).isEqualTo(order("order-6"));
		}
	}

	@Test
	void anIncompatibleChangeIsRefusedNamingTheSubjectAndTheRule() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		String topic = "strict-orders-" + this.run;
		RegistryApis.putCompatibility(this.registry, topic + "-value", "BACKWARD");
		this.serializer.serialize(order("order-7"), kafka(topic));

		// A field without a default: a consumer of the new version could not read the old events.
		Schema incompatible = withField(OrderPlaced.getClassSchema(), "{\"name\": \"warehouse\", \"type\": \"string\"}");
		GenericRecord refused = new GenericData.Record(incompatible);
		refused.put("orderId", "order-8");
		refused.put("customer", "ada");
		refused.put("amount", 4200L);
		refused.put("warehouse", "north");

		assertThatExceptionOfType(SchemaRegistryException.class)
			.isThrownBy(() -> this.serializer.serialize(refused, kafka(topic)))
			.withMessageContaining("subject '" + topic + "-value'")
			.withMessageContaining("COMPATIBILITY=BACKWARD")
			.withMessageContaining("give a new field a default");
		JsonNode versions = RegistryApis
			.getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + topic + "-value/versions");
		assertThat(versions).hasSize(1);
	}

	@Test
	void withoutAutoRegistrationASchemaThatIsNotRegisteredIsRefusedSayingSo() {
		this.serializer = new AvroPayloadSerializer(new SchemaRegistryProperties(this.registry.registryApiUrl(),
				WireFormat.CONFLUENT, false, Duration.ofSeconds(10), Map.of()));
		String topic = "unregistered-orders-" + this.run;

		assertThatExceptionOfType(SchemaRegistryException.class)
			.isThrownBy(() -> this.serializer.serialize(order("order-9"), kafka(topic)))
			.withMessageContaining("not registered under subject '" + topic + "-value'")
			.withMessageContaining("auto-register");
	}

	@Test
	void readsItsPayloadsBackAsTheGeneratedClassOrAsAGenericRecord() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());
		OrderPlaced order = order("order-10");
		PayloadTarget target = kafka("orders-" + this.run);
		byte[] bytes = this.serializer.serialize(order, target).bytes();

		assertThat(this.serializer.deserialize(bytes, OrderPlaced.class, target)).isEqualTo(order);
		assertThat(this.serializer.deserialize(bytes, GenericRecord.class, target).get("orderId"))
			.hasToString("order-10");
	}

	@Test
	void anEventThatIsNotAnAvroRecordIsRefused() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());

		assertThatExceptionOfType(SchemaRegistryException.class)
			.isThrownBy(() -> this.serializer.serialize("not a record", kafka("orders-" + this.run)))
			.withMessageContaining("java.lang.String")
			.withMessageContaining("not an Avro record");
	}

	@Test
	void claimsAvroRecordsOnly() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());

		assertThat(this.serializer.serializesByDefault(OrderPlaced.class)).isTrue();
		assertThat(this.serializer.serializesByDefault(GenericData.Record.class)).isTrue();
		assertThat(this.serializer.serializesByDefault(String.class)).isFalse();
	}

	@Test
	void writesAvroPayloadsOnly() {
		this.serializer = serializer(WireFormat.CONFLUENT, Map.of());

		assertThat(this.serializer.writes("application/avro")).isTrue();
		assertThat(this.serializer.writes("application/x-protobuf")).isFalse();
		assertThat(this.serializer.writes("application/json")).isFalse();
	}

	private AvroPayloadSerializer serializer(WireFormat wireFormat, Map<String, String> more) {
		return new AvroPayloadSerializer(new SchemaRegistryProperties(this.registry.registryApiUrl(), wireFormat, true,
				Duration.ofSeconds(10), more));
	}

	private static PayloadTarget kafka(String topic) {
		return new PayloadTarget("OrderPlaced", "kafka", topic);
	}

	private static OrderPlaced order(String id) {
		return OrderPlaced.newBuilder().setOrderId(id).setCustomer("ada").setAmount(4200L).build();
	}

	private static Schema withField(Schema schema, String field) {
		String json = schema.toString();
		return new Schema.Parser().parse(json.substring(0, json.lastIndexOf(']')) + "," + field + "]}");
	}

}
