package dev.outboxstarter.spi;

/**
 * Writes the payloads of outbox events in a format other than JSON, such as Avro or Protobuf behind a
 * schema registry. Declare an implementation as a bean to add a format.
 * <p>
 * An event is written in the format its route names ({@code @OutboxEvent(payloadFormat = ...)} or
 * {@code outbox.routes[<class>].payload-format}); else in the format of the first serializer that
 * {@linkplain #serializesByDefault(Class) claims its type}; else in {@code outbox.payload-format},
 * which defaults to {@code json}, the application's {@code JsonMapper}.
 * <p>
 * Serializing happens when the event is captured, in the business transaction, once per route: the
 * bytes stored are the bytes published, by whichever instance publishes them, however long after. A
 * serializer that cannot serialize an event (a schema its registry refuses, a registry it cannot reach
 * in time) throws, and the event is refused with an {@link dev.outboxstarter.OutboxCaptureException}
 * that its message explains: nothing is stored, and the business transaction decides what to do.
 *
 * @since 0.1.0
 */
public interface OutboxPayloadSerializer {

	/**
	 * The name routes select this format by, such as {@code avro}; {@code json} is the outbox's own.
	 * @return the name
	 */
	String format();

	/**
	 * Whether events of a type whose route names no payload format are written in this format, such as
	 * the classes Avro or Protobuf generates. None by default.
	 * @param eventType the event's class
	 * @return whether this format is the type's own
	 */
	default boolean serializesByDefault(Class<?> eventType) {
		return false;
	}

	/**
	 * Serializes an event for one of its routes.
	 * @param event the event
	 * @param target where the message goes, which may choose its schema (a registry subject is commonly
	 * named after the topic)
	 * @return the bytes to store and publish, with their content type
	 * @throws RuntimeException when the event cannot be serialized; its message is the refusal's
	 */
	SerializedPayload serialize(Object event, PayloadTarget target);

	/**
	 * Whether this format writes payloads of a content type. A stored or published payload records its
	 * content type, not the format that wrote it: this is how the test kit's {@code payloadAs} finds the
	 * format to {@linkplain #deserialize read it back} with. No content type by default.
	 * @param contentType a content type, as a {@link SerializedPayload} gave it
	 * @return whether this format writes payloads of that content type
	 */
	default boolean writes(String contentType) {
		return false;
	}

	/**
	 * Reads a payload this format wrote back into an event, for the test kit's {@code payloadAs} and for
	 * tools that show payloads decoded; such a format also says which content types it
	 * {@linkplain #writes(String) writes}. Formats that cannot read their payloads back need not.
	 * @param <T> the event's type
	 * @param payload the bytes {@link #serialize} wrote
	 * @param type the class to read them as
	 * @param target where the message was published
	 * @return the event
	 * @throws UnsupportedOperationException when this format cannot read its payloads back
	 */
	default <T> T deserialize(byte[] payload, Class<T> type, PayloadTarget target) {
		throw new UnsupportedOperationException("The payload format '" + format() + "' cannot read its payloads back");
	}

}
