package dev.outboxstarter.spi;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.OutboxHeaders;
import org.jspecify.annotations.Nullable;

/**
 * The CloudEvents 1.0 context attributes of an outbox message captured in the
 * {@link dev.outboxstarter.MessageFormat#CLOUDEVENTS CloudEvents format}, for a transport to
 * write as its protocol binding's binary content mode asks. The data is the message's payload:
 * JSON ({@value #DATA_CONTENT_TYPE}) unless a payload serializer wrote it in another format.
 * <p>
 * Which messages are CloudEvents is decided when the event is captured, and recorded in the headers
 * stored with it: {@value #SPEC_VERSION_HEADER} and {@value #SOURCE_HEADER}, in the Kafka binding's
 * names, so the relay of any instance, however configured, publishes the event as it was captured.
 * The other attributes come from the outbox row itself.
 *
 * @param id the outbox message id, the same on every redelivery
 * @param source the application that captured the event ({@code outbox.cloudevents.source})
 * @param type the logical event type
 * @param subject the id of the aggregate that raised the event, if any
 * @param time when the event was captured
 * @param dataContentType the media type of the data: {@value #DATA_CONTENT_TYPE}, or the content type of a
 * payload in another format
 * @param dataSchema a URI of the schema the data was written with, if its format names one
 * @since 0.1.0
 */
public record CloudEventAttributes(String id, String source, String type, @Nullable String subject, Instant time,
		String dataContentType, @Nullable String dataSchema) {

	/**
	 * The attributes of a CloudEvent whose data is JSON.
	 * @param id the outbox message id, the same on every redelivery
	 * @param source the application that captured the event ({@code outbox.cloudevents.source})
	 * @param type the logical event type
	 * @param subject the id of the aggregate that raised the event, if any
	 * @param time when the event was captured
	 */
	public CloudEventAttributes(String id, String source, String type, @Nullable String subject, Instant time) {
		this(id, source, type, subject, time, DATA_CONTENT_TYPE, null);
	}

	/** The CloudEvents specification version the messages follow. */
	public static final String SPEC_VERSION = "1.0";

	/** The content type of JSON data, the outbox's default payload format. */
	public static final String DATA_CONTENT_TYPE = "application/json";

	/** Prefix of the stored headers that are CloudEvents attributes. */
	public static final String STORED_HEADER_PREFIX = "ce_";

	/** Stored header that marks a CloudEvent and holds its {@code specversion}. */
	public static final String SPEC_VERSION_HEADER = STORED_HEADER_PREFIX + "specversion";

	/** Stored header holding the {@code source} of a CloudEvent. */
	public static final String SOURCE_HEADER = STORED_HEADER_PREFIX + "source";

	/**
	 * The headers stored with an event captured as a CloudEvent.
	 * @param source the CloudEvents source
	 * @return the headers
	 */
	public static Map<String, String> storedHeaders(String source) {
		return Map.of(SPEC_VERSION_HEADER, SPEC_VERSION, SOURCE_HEADER, source);
	}

	/**
	 * The CloudEvents attributes of a message, when it was captured as a CloudEvent.
	 * @param message the message
	 * @return its attributes, or {@code null} when it is in the outbox format
	 */
	public static @Nullable CloudEventAttributes of(OutboxMessage message) {
		Map<String, String> headers = message.headers();
		String source = headers.get(SOURCE_HEADER);
		if (!headers.containsKey(SPEC_VERSION_HEADER) || source == null) {
			return null;
		}
		String contentType = message.contentType();
		return new CloudEventAttributes(message.id().toString(), source, message.eventType(), message.aggregateId(),
				message.occurredAt(), (contentType != null) ? contentType : DATA_CONTENT_TYPE,
				headers.get(OutboxHeaders.PAYLOAD_SCHEMA));
	}

	/**
	 * The attributes by their CloudEvents names ({@code id}, {@code source}, {@code specversion},
	 * {@code type}, {@code subject}, {@code time}, {@code dataschema}), without {@code datacontenttype},
	 * which every binding maps to its own content type; {@code subject} and {@code dataschema} only when
	 * there is one.
	 * @return the attributes, in that order
	 */
	public Map<String, String> asMap() {
		Map<String, String> attributes = new LinkedHashMap<>();
		attributes.put("id", this.id);
		attributes.put("source", this.source);
		attributes.put("specversion", SPEC_VERSION);
		attributes.put("type", this.type);
		if (this.subject != null) {
			attributes.put("subject", this.subject);
		}
		attributes.put("time", this.time.toString());
		if (this.dataSchema != null) {
			attributes.put("dataschema", this.dataSchema);
		}
		return attributes;
	}

}
