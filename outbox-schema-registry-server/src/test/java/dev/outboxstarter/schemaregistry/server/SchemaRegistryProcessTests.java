package dev.outboxstarter.schemaregistry.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apicurio.registry.rest.client.RegistryClient;
import io.apicurio.registry.rest.client.RegistryClientFactory;
import io.apicurio.registry.rest.client.exception.RuleViolationException;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The registry that {@link SchemaRegistryProcess} runs is a real Apicurio Registry: schemas written
 * through one of its APIs are read back through the other, by the registry's own serializer,
 * deserializer and client.
 */
class SchemaRegistryProcessTests {

	private static final HttpClient http = HttpClient.newHttpClient();

	private static final ObjectMapper json = new ObjectMapper();

	private final SchemaRegistryProcess registry = SchemaRegistryProcess.shared();

	@Test
	void avroSerializerRegistersTheSchemaThatTheDeserializerAndTheConfluentCompatibleApiReadBack()
			throws Exception {
		Schema schema = orderSchema("OrderPlaced");
		GenericRecord order = order(schema, "order-1");
		byte[] bytes;
		try (AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>()) {
			serializer.configure(serdeConfig(Map.of(SerdeConfig.AUTO_REGISTER_ARTIFACT, true)), false);
			bytes = serializer.serialize("placed-orders", order);
		}
		GenericRecord read;
		try (AvroKafkaDeserializer<GenericRecord> deserializer = new AvroKafkaDeserializer<>()) {
			deserializer.configure(serdeConfig(Map.of()), false);
			read = deserializer.deserialize("placed-orders", bytes);
		}
		assertThat(read.get("id")).hasToString("order-1");
		assertThat(read.getSchema()).isEqualTo(schema);
		JsonNode latest = getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/placed-orders-value/versions/latest");
		assertThat(new Schema.Parser().parse(latest.get("schema").asText())).isEqualTo(schema);
	}

	@Test
	void schemaRegisteredThroughTheConfluentCompatibleApiIsReadByTheRegistryClientAndIdentifiedInConfluentWireFormat()
			throws Exception {
		Schema schema = orderSchema("OrderPaid");
		int id = postJson(this.registry.confluentCompatibleApiUrl() + "/subjects/paid-orders-value/versions",
				json.createObjectNode().put("schema", schema.toString()))
			.get("id")
			.asInt();

		RegistryClient client = RegistryClientFactory.create(this.registry.registryApiUrl());
		try (var latest = client.getLatestArtifact(null, "paid-orders-value")) {
			assertThat(new Schema.Parser().parse(new String(latest.readAllBytes(), StandardCharsets.UTF_8)))
				.isEqualTo(schema);
		}

		// Confluent's wire format: a zero byte, then the 4-byte id that the Confluent-compatible API
		// gave the schema, then the Avro binary encoding.
		Map<String, Object> asConfluent = new HashMap<>();
		asConfluent.put(SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, true);
		asConfluent.put(SerdeConfig.USE_ID, "contentId");
		asConfluent.put(SerdeConfig.ENABLE_HEADERS, false);
		asConfluent.put(SerdeConfig.FIND_LATEST_ARTIFACT, true);
		byte[] bytes;
		try (AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>()) {
			serializer.configure(serdeConfig(asConfluent), false);
			bytes = serializer.serialize("paid-orders", new RecordHeaders(), order(schema, "order-2"));
		}
		ByteBuffer buffer = ByteBuffer.wrap(bytes);
		assertThat(buffer.get()).isZero();
		assertThat(buffer.getInt()).isEqualTo(id);
		try (AvroKafkaDeserializer<GenericRecord> deserializer = new AvroKafkaDeserializer<>()) {
			deserializer.configure(serdeConfig(asConfluent), false);
			GenericRecord read = deserializer.deserialize("paid-orders", new RecordHeaders(), bytes);
			assertThat(read.get("id")).hasToString("order-2");
		}
	}

	@Test
	void avroSerializerRegistersACompatibleChangeAndIsRefusedAnIncompatibleOneUnderTheSubjectsCompatibilityRule()
			throws Exception {
		String subject = "evolving-orders-value";
		send(HttpRequest.newBuilder(URI.create(this.registry.confluentCompatibleApiUrl() + "/config/" + subject))
			.header("Content-Type", "application/vnd.schemaregistry.v1+json")
			.PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\": \"BACKWARD\"}"))
			.build());
		Schema first = orderSchema("OrderRevised");
		Schema compatible = new Schema.Parser().parse("""
				{"type": "record", "name": "OrderRevised", "namespace": "dev.outboxstarter.schemaregistry",
				 "fields": [{"name": "id", "type": "string"}, {"name": "amount", "type": "long"},
				            {"name": "currency", "type": "string", "default": "EUR"}]}
				""");
		Schema incompatible = new Schema.Parser().parse("""
				{"type": "record", "name": "OrderRevised", "namespace": "dev.outboxstarter.schemaregistry",
				 "fields": [{"name": "id", "type": "string"}, {"name": "amount", "type": "long"},
				            {"name": "customer", "type": "string"}]}
				""");
		try (AvroKafkaSerializer<GenericRecord> serializer = new AvroKafkaSerializer<>()) {
			serializer.configure(serdeConfig(Map.of(SerdeConfig.AUTO_REGISTER_ARTIFACT, true,
					SerdeConfig.AUTO_REGISTER_ARTIFACT_IF_EXISTS, "RETURN_OR_UPDATE")), false);
			serializer.serialize("evolving-orders", order(first, "order-3"));
			GenericRecord revised = order(compatible, "order-4");
			revised.put("currency", "CHF");
			serializer.serialize("evolving-orders", revised);
			GenericRecord refused = order(incompatible, "order-5");
			refused.put("customer", "c-1");
			// The registry names the subject and the change it refuses, not the rule.
			assertThatExceptionOfType(RuleViolationException.class)
				.isThrownBy(() -> serializer.serialize("evolving-orders", refused))
				.withMessageContaining("Incompatible artifact: " + subject)
				.withMessageContaining("customer");
		}
		JsonNode versions = getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + subject + "/versions");
		assertThat(versions).hasSize(2);
		JsonNode latest = getJson(this.registry.confluentCompatibleApiUrl() + "/subjects/" + subject + "/versions/latest");
		assertThat(new Schema.Parser().parse(latest.get("schema").asText())).isEqualTo(compatible);
	}

	@Test
	void protobufSchemaRegisteredThroughTheConfluentCompatibleApiIsReadByTheRegistryClientAsProtobuf()
			throws Exception {
		String proto = """
				syntax = "proto3";
				package dev.outboxstarter.schemaregistry;

				message OrderShipped {
				  string id = 1;
				  int64 amount = 2;
				}
				""";
		int id = postJson(this.registry.confluentCompatibleApiUrl() + "/subjects/shipped-orders-value/versions",
				json.createObjectNode().put("schemaType", "PROTOBUF").put("schema", proto))
			.get("id")
			.asInt();
		JsonNode byId = getJson(this.registry.confluentCompatibleApiUrl() + "/schemas/ids/" + id);
		assertThat(byId.get("schemaType").asText()).isEqualTo("PROTOBUF");

		RegistryClient client = RegistryClientFactory.create(this.registry.registryApiUrl());
		assertThat(client.getArtifactMetaData(null, "shipped-orders-value").getType()).hasToString("PROTOBUF");
		try (var latest = client.getLatestArtifact(null, "shipped-orders-value")) {
			assertThat(new String(latest.readAllBytes(), StandardCharsets.UTF_8)).contains("message OrderShipped");
		}
	}

	private Map<String, Object> serdeConfig(Map<String, Object> more) {
		Map<String, Object> config = new HashMap<>(more);
		config.put(SerdeConfig.REGISTRY_URL, this.registry.registryApiUrl());
		return config;
	}

	private static Schema orderSchema(String name) {
		return new Schema.Parser().parse("""
				{"type": "record", "name": "%s", "namespace": "dev.outboxstarter.schemaregistry",
				 "fields": [{"name": "id", "type": "string"}, {"name": "amount", "type": "long"}]}
				""".formatted(name));
	}

	private static GenericRecord order(Schema schema, String id) {
		GenericRecord order = new GenericData.Record(schema);
		order.put("id", id);
		order.put("amount", 4200L);
		return order;
	}

	private static JsonNode getJson(String url) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(URI.create(url)).GET().build());
	}

	private static JsonNode postJson(String url, JsonNode body) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/vnd.schemaregistry.v1+json")
			.POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)))
			.build());
	}

	private static JsonNode send(HttpRequest request) throws IOException, InterruptedException {
		HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("%s %s: %s", request.method(), request.uri(), response.body())
			.isEqualTo(200);
		return json.readTree(response.body());
	}

}
