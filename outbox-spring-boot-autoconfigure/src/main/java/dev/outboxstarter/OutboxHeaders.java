package dev.outboxstarter;

/**
 * Names of the headers every published outbox message carries, whatever the transport.
 *
 * @since 0.1.0
 */
public final class OutboxHeaders {

	/** The outbox row id (a UUIDv7): the same on every redelivery, so consumers can deduplicate. */
	public static final String MESSAGE_ID = "outbox-message-id";

	/** The logical event type. */
	public static final String EVENT_TYPE = "outbox-event-type";

	/** The type of the aggregate that raised the event, when there is one. */
	public static final String AGGREGATE_TYPE = "outbox-aggregate-type";

	/** The id of the aggregate that raised the event, when there is one. */
	public static final String AGGREGATE_ID = "outbox-aggregate-id";

	/**
	 * The message key, for transports whose messages have no key of their own (RabbitMQ); Kafka sends
	 * it as the record key.
	 */
	public static final String MESSAGE_KEY = "outbox-message-key";

	/** When the event was captured, ISO-8601 in UTC. */
	public static final String OCCURRED_AT = "outbox-occurred-at";

	/**
	 * On a copy an operator published again, the id of the event it copies; its own
	 * {@link #MESSAGE_ID} is new (see {@code OutboxAdministration#republish}).
	 */
	public static final String REPUBLISHED_FROM = "outbox-republished-from";

	/**
	 * The payload's media type, on a message whose payload is not JSON (and on a CloudEvent): a Kafka
	 * header; RabbitMQ carries it as the message's content type.
	 */
	public static final String CONTENT_TYPE = "content-type";

	/**
	 * A URI of the schema a binary payload was written with, when its format names one (see
	 * {@link dev.outboxstarter.spi.SerializedPayload#schema()}).
	 */
	public static final String PAYLOAD_SCHEMA = "outbox-payload-schema";

	private OutboxHeaders() {
	}

}
