package dev.outboxstarter.kafka.connect;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * Turns a record of Debezium's outbox event router ({@code io.debezium.transforms.outbox.EventRouter})
 * into the record the outbox starter's own Kafka transport sends for the same row, so that a consumer
 * cannot tell which relay sent it: same topic, key and value bytes, and the same headers in the same
 * order with the same bytes, which the router cannot give.
 * <p>
 * It expects the router to have placed these columns as headers (see
 * {@code connectors/postgresql.json}): {@code transport} as {@value #TRANSPORT}, {@code headers} as
 * {@value #STORED_HEADERS}, {@code content_type} as {@value #CONTENT_TYPE}, {@code event_type},
 * {@code aggregate_type}, {@code aggregate_id} and {@code created_at} under the outbox's own header
 * names, and the router's event id header {@value #ROUTER_ID}. It then
 * <ul>
 * <li>drops rows of other transports (RabbitMQ, local handlers): instances in polling mode publish
 * those themselves, and instances in log mode refuse them;</li>
 * <li>makes the value the payload's bytes: a JSON payload's UTF-8 bytes, or, for a payload a payload
 * serializer wrote in another format (Avro, Protobuf: a row with a content type), the bytes it wrote,
 * which the row holds in Base64;</li>
 * <li>expands the stored headers (a JSON object: trace context, correlation id, user headers, the
 * schema of a binary payload) into one header each, first, as the transport does;</li>
 * <li>adds {@code outbox-message-id}, {@code outbox-event-type}, {@code outbox-aggregate-type},
 * {@code outbox-aggregate-id} (each only when present) and {@code outbox-occurred-at}, the capture
 * time written as {@link Instant#toString()} whatever form the connector gives it in;</li>
 * <li>for an event captured as a CloudEvent (its stored headers hold {@code ce_specversion} and
 * {@code ce_source}), adds the {@code ce_} headers of the CloudEvents Kafka binding's binary content
 * mode and a {@code content-type} header, the payload's content type or {@code application/json};
 * else a {@code content-type} header for a binary payload only;</li>
 * <li>drops every other header.</li>
 * </ul>
 * The value is bytes (schema {@link Schema#BYTES_SCHEMA}): use
 * {@code org.apache.kafka.connect.converters.ByteArrayConverter} as the value converter, which writes
 * them as they are. Header values are strings: use
 * {@code org.apache.kafka.connect.storage.SimpleHeaderConverter}, which writes them as UTF-8 bytes,
 * like the transport.
 *
 * @param <R> the record type
 * @since 0.1.0
 */
public class ToOutboxMessage<R extends ConnectRecord<R>> implements Transformation<R> {

	/** The router's header with the row id. */
	public static final String ROUTER_ID = "id";

	/** The header the router is told to put the {@code transport} column in. */
	public static final String TRANSPORT = "outbox-transport";

	/** The header the router is told to put the {@code headers} column in. */
	public static final String STORED_HEADERS = "outbox-stored-headers";

	/** The header the router is told to put the {@code content_type} column in. */
	public static final String CONTENT_TYPE = "outbox-content-type";

	static final String MESSAGE_ID = "outbox-message-id";

	static final String EVENT_TYPE = "outbox-event-type";

	static final String AGGREGATE_TYPE = "outbox-aggregate-type";

	static final String AGGREGATE_ID = "outbox-aggregate-id";

	static final String OCCURRED_AT = "outbox-occurred-at";

	static final String PAYLOAD_SCHEMA = "outbox-payload-schema";

	static final String MESSAGE_CONTENT_TYPE = "content-type";

	private static final String CLOUD_EVENT_PREFIX = "ce_";

	private static final String CLOUD_EVENT_SPEC_VERSION = "1.0";

	private static final String JSON_CONTENT_TYPE = "application/json";

	private static final String TRANSPORT_CONFIG = "transport";

	/** The outbox's Kafka transport, whose rows the connector publishes unless told another. */
	private static final String DEFAULT_TRANSPORT = "kafka";

	private static final ConfigDef CONFIG = new ConfigDef().define(TRANSPORT_CONFIG, ConfigDef.Type.STRING,
			DEFAULT_TRANSPORT, ConfigDef.Importance.LOW,
			"The outbox transport whose rows are published (outbox routes' 'transport'); rows of other "
					+ "transports are dropped.");

	private static final TypeReference<LinkedHashMap<String, String>> STRING_MAP = new TypeReference<>() {
	};

	private final ObjectMapper json = new ObjectMapper();

	private String transport = DEFAULT_TRANSPORT;

	@Override
	public void configure(Map<String, ?> configs) {
		this.transport = new AbstractConfig(CONFIG, configs).getString(TRANSPORT_CONFIG);
	}

	@Override
	public R apply(R record) {
		if (record == null || record.value() == null) {
			return record;
		}
		Headers routed = record.headers();
		String rowTransport = string(routed, TRANSPORT);
		if (rowTransport == null) {
			throw new DataException("The record for topic " + record.topic() + " has no '" + TRANSPORT
					+ "' header: put the transport column in it with the EventRouter's "
					+ "table.fields.additional.placement (see the outbox's connectors/postgresql.json)");
		}
		if (!this.transport.equals(rowTransport)) {
			return null;
		}
		String contentType = contentType(routed, record);
		byte[] payload = payload(record, contentType);
		Map<String, String> stored = storedHeaders(string(routed, STORED_HEADERS));
		ConnectHeaders headers = new ConnectHeaders();
		stored.forEach((name, value) -> put(headers, name, value));
		String messageId = required(routed, ROUTER_ID, record);
		String eventType = required(routed, EVENT_TYPE, record);
		String aggregateId = string(routed, AGGREGATE_ID);
		String occurredAt = occurredAt(routed, record);
		put(headers, MESSAGE_ID, messageId);
		put(headers, EVENT_TYPE, eventType);
		put(headers, AGGREGATE_TYPE, string(routed, AGGREGATE_TYPE));
		put(headers, AGGREGATE_ID, aggregateId);
		put(headers, OCCURRED_AT, occurredAt);
		String source = stored.get(CLOUD_EVENT_PREFIX + "source");
		if (stored.containsKey(CLOUD_EVENT_PREFIX + "specversion") && source != null) {
			put(headers, CLOUD_EVENT_PREFIX + "id", messageId);
			put(headers, CLOUD_EVENT_PREFIX + "source", source);
			put(headers, CLOUD_EVENT_PREFIX + "specversion", CLOUD_EVENT_SPEC_VERSION);
			put(headers, CLOUD_EVENT_PREFIX + "type", eventType);
			put(headers, CLOUD_EVENT_PREFIX + "subject", aggregateId);
			put(headers, CLOUD_EVENT_PREFIX + "time", occurredAt);
			put(headers, CLOUD_EVENT_PREFIX + "dataschema", stored.get(PAYLOAD_SCHEMA));
			put(headers, MESSAGE_CONTENT_TYPE, (contentType != null) ? contentType : JSON_CONTENT_TYPE);
		}
		else {
			put(headers, MESSAGE_CONTENT_TYPE, contentType);
		}
		return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
				Schema.BYTES_SCHEMA, payload, record.timestamp(), headers);
	}

	/**
	 * The row's content type, {@code null} for JSON. The header must be there, null or not: a connector
	 * configured without it would also still write the value with a {@code StringConverter}, which
	 * turns bytes into their array's name.
	 */
	private static String contentType(Headers routed, ConnectRecord<?> record) {
		Header header = routed.lastWithName(CONTENT_TYPE);
		if (header == null) {
			throw new DataException("The record for topic " + record.topic() + " has no '" + CONTENT_TYPE
					+ "' header: put the content_type column in it with the EventRouter's "
					+ "table.fields.additional.placement (content_type:header:" + CONTENT_TYPE + "), and set "
					+ "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter, as the outbox's "
					+ "connectors/postgresql.json does");
		}
		return (header.value() != null) ? header.value().toString() : null;
	}

	/**
	 * The bytes the transport sends: a JSON payload's UTF-8 bytes, or the Base64-decoded bytes of a
	 * payload in another format.
	 */
	private static byte[] payload(ConnectRecord<?> record, String contentType) {
		if (!(record.value() instanceof String payload)) {
			throw new DataException("The record for topic " + record.topic() + " has a "
					+ record.value().getClass().getName() + " value where the router gives the payload column "
					+ "as a string: leave the EventRouter's table.expand.json.payload off");
		}
		if (contentType == null) {
			return payload.getBytes(StandardCharsets.UTF_8);
		}
		try {
			return Base64.getDecoder().decode(payload);
		}
		catch (IllegalArgumentException ex) {
			throw new DataException("The " + contentType + " payload of the record for topic " + record.topic()
					+ " is not Base64, as the outbox stores a binary payload: was its row written outside the outbox?",
					ex);
		}
	}

	/**
	 * The same header set twice keeps its last value, as the transport does: a stored header named like
	 * an outbox header gives way to it.
	 */
	private static void put(ConnectHeaders headers, String name, String value) {
		if (value != null) {
			headers.remove(name);
			headers.addString(name, value);
		}
	}

	private Map<String, String> storedHeaders(String stored) {
		if (stored == null || stored.isEmpty()) {
			return Map.of();
		}
		try {
			return this.json.readValue(stored, STRING_MAP);
		}
		catch (JsonProcessingException ex) {
			throw new DataException("The outbox row's headers column is not a JSON object of strings: " + stored, ex);
		}
	}

	/**
	 * The capture time as the transport writes it. Debezium gives a PostgreSQL {@code timestamptz} as
	 * an ISO-8601 string (with as few fraction digits as it needs, where {@link Instant#toString()}
	 * writes them in groups of three), and a MySQL or MariaDB {@code DATETIME(6)}, which the outbox fills
	 * in UTC, as microseconds since the epoch, or as a {@link Date} with
	 * {@code time.precision.mode=connect}.
	 */
	private static String occurredAt(Headers routed, ConnectRecord<?> record) {
		Header header = routed.lastWithName(OCCURRED_AT);
		Object value = (header != null) ? header.value() : null;
		if (value instanceof String text) {
			return OffsetDateTime.parse(text).toInstant().toString();
		}
		if (value instanceof Long micros) {
			return Instant.EPOCH.plusNanos(Math.multiplyExact(micros, 1000L)).toString();
		}
		if (value instanceof Date date) {
			return date.toInstant().toString();
		}
		throw new DataException("The record for topic " + record.topic() + " has no usable '" + OCCURRED_AT
				+ "' header (" + value + "): put the created_at column in it with the EventRouter's "
				+ "table.fields.additional.placement");
	}

	private static String required(Headers routed, String name, ConnectRecord<?> record) {
		String value = string(routed, name);
		if (value == null) {
			throw new DataException("The record for topic " + record.topic() + " has no '" + name
					+ "' header: see the outbox's connectors/postgresql.json for the EventRouter settings it needs");
		}
		return value;
	}

	private static String string(Headers headers, String name) {
		Header header = headers.lastWithName(name);
		return (header != null && header.value() != null) ? header.value().toString() : null;
	}

	@Override
	public ConfigDef config() {
		return CONFIG;
	}

	@Override
	public void close() {
	}

}
