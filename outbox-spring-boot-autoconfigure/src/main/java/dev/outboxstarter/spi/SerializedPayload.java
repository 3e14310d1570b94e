package dev.outboxstarter.spi;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An event's payload in a binary format, as an {@link OutboxPayloadSerializer} wrote it.
 *
 * @param bytes the payload, published as it is
 * @param contentType its media type, such as {@code application/avro}; sent as the message's content
 * type and, for a CloudEvent, as its {@code datacontenttype}
 * @param schema a URI of the schema the payload was written with, if it has one; sent as the
 * {@value dev.outboxstarter.OutboxHeaders#PAYLOAD_SCHEMA} header and, for a CloudEvent, as its
 * {@code dataschema}
 * @since 0.1.0
 */
public record SerializedPayload(byte[] bytes, String contentType, @Nullable String schema) {

	/**
	 * Checks the payload.
	 * @param bytes the payload
	 * @param contentType its media type
	 * @param schema a URI of its schema, if any
	 */
	public SerializedPayload {
		Objects.requireNonNull(bytes, "A serialized payload needs its bytes");
		if (contentType == null || contentType.isBlank()) {
			throw new IllegalArgumentException("A serialized payload needs a content type");
		}
	}

}
