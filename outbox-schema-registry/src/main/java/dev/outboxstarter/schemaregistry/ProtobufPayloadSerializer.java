package dev.outboxstarter.schemaregistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.protobuf.GeneratedMessageV3;
import com.google.protobuf.Message;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaDeserializer;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaSerializer;

/**
 * Writes events as Protobuf, with Apicurio Registry's {@link ProtobufKafkaSerializer}: the message's
 * {@code .proto} schema registered (or found) under its destination's subject, the registry's id, the
 * message's type, then the message. Consumers read the bytes with Apicurio's
 * {@code ProtobufKafkaDeserializer} configured for the same {@link WireFormat}. The format of the
 * classes Protobuf generates ({@link Message}s), unless their route names another; the content type is
 * {@value #CONTENT_TYPE}.
 *
 * @since 0.1.0
 */
public class ProtobufPayloadSerializer implements OutboxPayloadSerializer, AutoCloseable {

	/**
	 * The name routes select this format by.
	 */
	public static final String FORMAT = "protobuf";

	/**
	 * The content type of the payloads: a Protobuf message, after the registry's id and the message's
	 * type.
	 */
	public static final String CONTENT_TYPE = "application/x-protobuf";

	private final RegisteringSerializer<Message> serializer;

	private final Map<Class<?>, ProtobufKafkaDeserializer<Message>> readers = new ConcurrentHashMap<>();

	/**
	 * Creates a serializer for a registry.
	 * @param properties the registry and how to write to it
	 */
	public ProtobufPayloadSerializer(SchemaRegistryProperties properties) {
		this.serializer = new RegisteringSerializer<>(FORMAT, CONTENT_TYPE, ProtobufKafkaSerializer::new,
				properties);
	}

	@Override
	public String format() {
		return FORMAT;
	}

	/**
	 * Claims the classes Protobuf generates.
	 */
	@Override
	public boolean serializesByDefault(Class<?> eventType) {
		return Message.class.isAssignableFrom(eventType);
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
		if (!(event instanceof Message message)) {
			throw new SchemaRegistryException("Cannot write event '" + target.eventType() + "' ("
					+ event.getClass().getName() + ") as PROTOBUF: it is not a Protobuf message. Generate its class "
					+ "from a .proto file, or route it to another payload format");
		}
		return this.serializer.serialize(message, target);
	}

	/**
	 * Reads a payload back with Apicurio's {@link ProtobufKafkaDeserializer}: as the generated class for a
	 * class Protobuf generates, else as a {@link com.google.protobuf.DynamicMessage}.
	 */
	@Override
	public <T> T deserialize(byte[] payload, Class<T> type, PayloadTarget target) {
		ProtobufKafkaDeserializer<Message> reader = this.readers.computeIfAbsent(type, (key) -> {
			ProtobufKafkaDeserializer<Message> created = new ProtobufKafkaDeserializer<>();
			Map<String, Object> settings = this.serializer.settings();
			if (GeneratedMessageV3.class.isAssignableFrom(key)) {
				settings.put(SerdeConfig.DESERIALIZER_SPECIFIC_VALUE_RETURN_CLASS, key.getName());
			}
			created.configure(settings, false);
			return created;
		});
		Object event = this.serializer.deserialize(payload, target, reader::deserialize);
		if (!type.isInstance(event)) {
			throw new SchemaRegistryException("Cannot read the PROTOBUF payload of event '" + target.eventType()
					+ "' as " + type.getName() + ": it holds a " + event.getClass().getName());
		}
		return type.cast(event);
	}

	@Override
	public void close() {
		this.readers.values().forEach(ProtobufKafkaDeserializer::close);
		this.serializer.close();
	}

}
