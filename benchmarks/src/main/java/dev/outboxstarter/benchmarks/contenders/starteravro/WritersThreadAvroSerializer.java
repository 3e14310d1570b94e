package dev.outboxstarter.benchmarks.contenders.starteravro;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.schemaregistry.AvroPayloadSerializer;
import dev.outboxstarter.schemaregistry.SchemaRegistryProperties;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.resolver.SchemaResolverConfig;
import io.apicurio.registry.serde.Legacy4ByteIdHandler;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.config.IdOption;

/**
 * For measuring what the module's serializer adds around Apicurio's: the same
 * {@link AvroKafkaSerializer}, with the settings the module gives it for the Confluent wire format and
 * one instance per topic, called on the writer's own thread instead of on a thread of the serializer's
 * with the request timeout as the bound. Without that bound a registry that does not answer holds the
 * business transaction for as long as it does not, so this is a measuring aid, not a way to write Avro.
 * Kafka topics only, as the benchmarks publish.
 */
class WritersThreadAvroSerializer extends AvroPayloadSerializer {

	private final Map<String, AvroKafkaSerializer<Object>> byTopic = new ConcurrentHashMap<>();

	private final Map<String, Object> settings;

	private final String contentIdsUrl;

	WritersThreadAvroSerializer(SchemaRegistryProperties properties) {
		super(properties);
		String apiUrl = properties.getUrl().replaceFirst("/+$", "");
		Map<String, Object> settings = new HashMap<>();
		settings.put(SerdeConfig.AUTO_REGISTER_ARTIFACT_IF_EXISTS, "RETURN_OR_UPDATE");
		settings.put(SchemaResolverConfig.FAULT_TOLERANT_REFRESH, true);
		settings.put(SerdeConfig.CHECK_PERIOD_MS, Duration.ofDays(1).toMillis());
		settings.put(SerdeConfig.REGISTRY_URL, apiUrl);
		settings.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, true);
		settings.put(SerdeConfig.ENABLE_HEADERS, false);
		settings.put(SerdeConfig.ID_HANDLER, Legacy4ByteIdHandler.class.getName());
		settings.put(SerdeConfig.USE_ID, IdOption.contentId.name());
		this.settings = Map.copyOf(settings);
		this.contentIdsUrl = apiUrl + "/ids/contentIds/";
	}

	@Override
	public SerializedPayload serialize(Object event, PayloadTarget target) {
		String topic = target.destination();
		AvroKafkaSerializer<Object> serializer = this.byTopic.computeIfAbsent(topic, (name) -> {
			AvroKafkaSerializer<Object> created = new AvroKafkaSerializer<>();
			created.configure(this.settings, false);
			return created;
		});
		byte[] bytes = serializer.serialize(topic, event);
		// The magic byte, then the 4-byte content id.
		int contentId = ByteBuffer.wrap(bytes, 1, Integer.BYTES).getInt();
		return new SerializedPayload(bytes, CONTENT_TYPE, this.contentIdsUrl + contentId);
	}

	@Override
	public void close() {
		this.byTopic.values().forEach(AvroKafkaSerializer::close);
		super.close();
	}

}
