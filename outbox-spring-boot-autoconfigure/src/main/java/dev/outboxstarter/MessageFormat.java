package dev.outboxstarter;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * How an outbox event is laid out on the broker. The payload is the event as JSON in either format;
 * the formats differ in the headers that describe it.
 *
 * @since 0.1.0
 */
public enum MessageFormat {

	/**
	 * The outbox's own headers ({@code outbox-message-id}, {@code outbox-event-type}, ...; see
	 * {@link OutboxHeaders}).
	 */
	OUTBOX,

	/**
	 * CloudEvents 1.0 in binary content mode: the payload is the event's data, its context attributes
	 * are headers ({@code ce_id}, {@code ce_type}, ... on Kafka; {@code cloudEvents:id}, ... on
	 * RabbitMQ), next to the outbox's own headers.
	 */
	CLOUDEVENTS;

	/**
	 * The format a name stands for, written in any case, with or without dashes and underscores
	 * ({@code cloudevents}, {@code cloud-events}, {@code CLOUDEVENTS}), as Spring Boot binds the
	 * {@code outbox.message-format} property.
	 * @param name the name
	 * @return the format, or {@code null} when the name is none
	 */
	public static @Nullable MessageFormat named(String name) {
		String uniform = name.replace("-", "").replace("_", "").trim().toUpperCase(Locale.ROOT);
		for (MessageFormat format : values()) {
			if (format.name().equals(uniform)) {
				return format;
			}
		}
		return null;
	}

}
