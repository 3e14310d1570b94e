package dev.outboxstarter.schemaregistry;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Message;
import dev.outboxstarter.schemaregistry.proto.ShipmentDispatched;
import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Protobuf payloads, of a message compiled by protoc, written against a real Apicurio Registry and
 * read back by Apicurio's deserializer, with no outbox code.
 */
class ProtobufPayloadSerializerTests {

	private final SchemaRegistryProcess registry = SchemaRegistryProcess.shared();

	private final String run = UUID.randomUUID().toString().substring(0, 8);

	private ProtobufPayloadSerializer serializer;

	@AfterEach
	void close() {
		if (this.serializer != null) {
			this.serializer.close();
		}
	}

	@Test
	void generatedMessageIsReadBackAsTheGeneratedClassByApicuriosDeserializer() {
		this.serializer = serializer(WireFormat.CONFLUENT);
		ShipmentDispatched shipment = shipment("shipment-1");
		String topic = "shipments-" + this.run;

		SerializedPayload payload = this.serializer.serialize(shipment, kafka(topic));

		assertThat(payload.contentType()).isEqualTo("application/x-protobuf");
		Map<String, Object> settings = RegistryApis.consumerSettings(this.registry, WireFormat.CONFLUENT);
		settings.put(SerdeConfig.DESERIALIZER_SPECIFIC_VALUE_RETURN_CLASS, ShipmentDispatched.class.getName());
		try (ProtobufKafkaDeserializer<ShipmentDispatched> deserializer = new ProtobufKafkaDeserializer<>()) {
			deserializer.configure(settings, false);
			assertThat(deserializer.deserialize(topic, payload.bytes())).isEqualTo(shipment);
		}
	}

	@Test
	void theMessagesSchemaIsRegisteredAsProtobufUnderTheSubjectThePayloadNames() {
		this.serializer = serializer(WireFormat.CONFLUENT);
		String topic = "shipments-" + this.run;

		SerializedPayload payload = this.serializer.serialize(shipment("shipment-2"), kafka(topic));

		int id = ByteBuffer.wrap(payload.bytes(), 1, 4).getInt();
		JsonNode latest = RegistryApis
			.getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + topic + "-value/versions/latest");
		assertThat(latest.get("id").asInt()).isEqualTo(id);
		assertThat(latest.get("schemaType").asText()).isEqualTo("PROTOBUF");
		assertThat(RegistryApis.get(payload.schema())).contains("message ShipmentDispatched");
	}

	@Test
	void messageInApicuriosWireFormatIsReadBackByTheDeserializerAsConfiguredByDefault() throws Exception {
		this.serializer = serializer(WireFormat.APICURIO);
		String topic = "shipments-" + this.run;
		ShipmentDispatched shipment = shipment("shipment-3");

		SerializedPayload payload = this.serializer.serialize(shipment,
				new PayloadTarget("ShipmentDispatched", "rabbit", "shipping/" + topic));

		assertThat(payload.schema()).startsWith(this.registry.registryApiUrl() + "/ids/globalIds/");
		try (ProtobufKafkaDeserializer<Message> deserializer = new ProtobufKafkaDeserializer<>()) {
			deserializer.configure(Map.of(SerdeConfig.REGISTRY_URL, this.registry.registryApiUrl()), false);
			Message read = deserializer.deserialize("any-topic", payload.bytes());
			assertThat(ShipmentDispatched.newBuilder().mergeFrom(read.toByteArray()).build()).isEqualTo(shipment);
		}
	}

	@Test
	void readsItsPayloadsBackAsTheGeneratedClass() {
		this.serializer = serializer(WireFormat.CONFLUENT);
		ShipmentDispatched shipment = shipment("shipment-4");
		PayloadTarget target = kafka("shipments-" + this.run);
		byte[] bytes = this.serializer.serialize(shipment, target).bytes();

		assertThat(this.serializer.deserialize(bytes, ShipmentDispatched.class, target)).isEqualTo(shipment);
	}

	@Test
	void anEventThatIsNotAProtobufMessageIsRefused() {
		this.serializer = serializer(WireFormat.CONFLUENT);

		assertThatExceptionOfType(SchemaRegistryException.class)
			.isThrownBy(() -> this.serializer.serialize(42, kafka("shipments-" + this.run)))
			.withMessageContaining("java.lang.Integer")
			.withMessageContaining("not a Protobuf message");
	}

	@Test
	void claimsProtobufMessagesOnly() {
		this.serializer = serializer(WireFormat.CONFLUENT);

		assertThat(this.serializer.serializesByDefault(ShipmentDispatched.class)).isTrue();
		assertThat(this.serializer.serializesByDefault(String.class)).isFalse();
	}

	@Test
	void writesProtobufPayloadsOnly() {
		this.serializer = serializer(WireFormat.CONFLUENT);

		assertThat(this.serializer.writes("application/x-protobuf")).isTrue();
		assertThat(this.serializer.writes("application/avro")).isFalse();
	}

	private ProtobufPayloadSerializer serializer(WireFormat wireFormat) {
		return new ProtobufPayloadSerializer(new SchemaRegistryProperties(this.registry.registryApiUrl(), wireFormat,
				true, Duration.ofSeconds(10), Map.of()));
	}

	private static PayloadTarget kafka(String topic) {
		return new PayloadTarget("ShipmentDispatched", "kafka", topic);
	}

	private static ShipmentDispatched shipment(String id) {
		return ShipmentDispatched.newBuilder().setShipmentId(id).setOrderId("order-1").setParcels(2).build();
	}

}
