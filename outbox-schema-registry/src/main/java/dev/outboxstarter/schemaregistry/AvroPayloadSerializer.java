package dev.outboxstarter.schemaregistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes events as Avro, with Apicurio Registry's {@link AvroKafkaSerializer}: the event's schema
 * registered (or found) under its destination's subject, the registry's id, then the Avro binary
 * encoding. Consumers read the bytes with Apicurio's {@code AvroKafkaDeserializer} configured for the
 * same {@link WireFormat}, or, in the Confluent wire format, with Confluent's deserializer against the
 * registry's Confluent-compatible API. The format of the classes Avro generates and of
 * {@link org.apache.avro.generic.GenericRecord}s, unless their route names another; the content type
 * is {@value #CONTENT_TYPE}.
 *
 * @since 0.1.0
 */
public class AvroPayloadSerializer implements OutboxPayloadSerializer, AutoCloseable {

	/**
	 * The name routes select this format by.
	 */
	public static final String FORMAT = "avro";

	/**
	 * The content type of the payloads: Avro's binary encoding, after the registry's id.
	 */
	public static final String CONTENT_TYPE = "application/avro";

	private final boolean reflection;

	private final RegisteringSerializer<Object> serializer;

	private final Map<Class<?>, AvroKafkaDeserializer<Object>> readers = new ConcurrentHashMap<>();

	/**
	 * Creates a serializer for a registry.
	 * @param properties the registry and how to write to it
	 */
	public AvroPayloadSerializer(SchemaRegistryProperties properties) {
		this.reflection = properties.getProperties().containsKey(AvroKafkaSerdeConfig.AVRO_DATUM_PROVIDER);
		this.serializer = new RegisteringSerializer<>(FORMAT, CONTENT_TYPE, AvroKafkaSerializer::new, properties);
	}

	@Override
	public String format() {
		return FORMAT;
	}

	/**
	 * Claims Avro records: the classes Avro generates and generic records.
	 */
	@Override
	public boolean serializesByDefault(Class<?> eventType) {
		return IndexedRecord.class.isAssignableFrom(eventType);
	}

	/**
	 * Writes payloads of {@value #CONTENT_TYPE}, which {@link #deserialize} reads back.
	 */
	@Override
	public boolean writes(String contentType) {
		return CONTENT_TYPE.equals(contentType);
	}

	@Override
	public SerializedPayload serialize(Object event, PayloadTarget target) {
		if (!this.reflection && !(event instanceof IndexedRecord)) {
			throw new SchemaRegistryException("Cannot write event '" + target.eventType() + "' ("
					+ event.getClass().getName() + ") as AVRO: it is not an Avro record. Generate its class from an "
					+ "Avro schema, or build a GenericRecord; to have Avro derive a schema from the class instead, set "
					+ "outbox.schema-registry.properties[" + AvroKafkaSerdeConfig.AVRO_DATUM_PROVIDER + "]="
					+ "io.apicurio.registry.serde.avro.ReflectAvroDatumProvider");
		}
		return this.serializer.serialize(event, target);
	}

	/**
	 * Reads a payload back with Apicurio's {@link AvroKafkaDeserializer}: as the generated class for a
	 * class Avro generates, else as a {@link org.apache.avro.generic.GenericRecord}.
	 */
	@Override
	public <T> T deserialize(byte[] payload, Class<T> type, PayloadTarget target) {
		AvroKafkaDeserializer<Object> reader = this.readers.computeIfAbsent(type, (key) -> {
			AvroKafkaDeserializer<Object> created = new AvroKafkaDeserializer<>();
			Map<String, Object> settings = this.serializer.settings();
			settings.put(AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, SpecificRecord.class.isAssignableFrom(key));
			created.configure(settings, false);
			return created;
		});
		Object event = this.serializer.deserialize(payload, target, reader::deserialize);
		if (!type.isInstance(event)) {
			throw new SchemaRegistryException("Cannot read the AVRO payload of event '" + target.eventType() + "' as "
					+ type.getName() + ": it holds a " + event.getClass().getName());
		}
		return type.cast(event);
	}

	@Override
	public void close() {
		this.readers.values().forEach(AvroKafkaDeserializer::close);
		this.serializer.close();
	}

}
