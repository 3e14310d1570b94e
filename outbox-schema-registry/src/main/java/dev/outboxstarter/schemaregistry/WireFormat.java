package dev.outboxstarter.schemaregistry;

/**
 * How a payload names the schema it was written with: a zero byte, then the schema's id in the
 * registry, then the encoded event. Consumers configure their deserializer for the same format.
 *
 * @since 0.1.0
 */
public enum WireFormat {

	/**
	 * Confluent's: a 4-byte content id, the id the registry's Confluent-compatible API gives the schema.
	 * Read by Apicurio's deserializers with {@code apicurio.registry.as-confluent=true} and
	 * {@code apicurio.registry.use-id=contentId}, and by Confluent's Avro deserializer through that API.
	 */
	CONFLUENT,

	/**
	 * Apicurio Registry's own: an 8-byte global id, the id of the schema's version. Read by Apicurio's
	 * deserializers as they are configured by default.
	 */
	APICURIO

}
