package dev.outboxstarter;

import org.springframework.messaging.converter.MessageConversionException;

/**
 * A message without an {@code outbox-message-id} or a CloudEvents id cannot be deduplicated. It is a
 * message conversion failure, so Spring Kafka's and Spring AMQP's default error handling do not retry
 * it: it is logged (or sent to a dead-letter destination, if one is configured) once.
 *
 * @since 0.1.0
 */
public class MissingMessageIdException extends MessageConversionException {

	public MissingMessageIdException(String message) {
		super(message);
	}

}
