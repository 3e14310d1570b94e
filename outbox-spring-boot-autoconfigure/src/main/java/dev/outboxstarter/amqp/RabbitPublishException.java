package dev.outboxstarter.amqp;

import org.springframework.amqp.AmqpException;

/**
 * RabbitMQ did not take an outbox message: it was negatively acknowledged, or returned as
 * unroutable. The outbox counts it as a failed attempt and retries it.
 */
class RabbitPublishException extends AmqpException {

	public RabbitPublishException(String message) {
		super(message);
	}

}
