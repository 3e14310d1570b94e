package dev.outboxstarter.amqp;

import org.springframework.amqp.AmqpException;

/**
 * The channel an outbox message was published on closed before the message was written to it, or
 * before the broker confirmed or refused it: the connection was lost, or the broker or the application
 * closed the channel. The broker may have taken the message or not, so the outbox sends it again; and
 * since the closure is not the message's failure, the transport reports it as the broker being
 * unavailable.
 */
class RabbitChannelClosedException extends AmqpException {

	public RabbitChannelClosedException(String message) {
		super(message);
	}

	public RabbitChannelClosedException(String message, Throwable cause) {
		super(message, cause);
	}

}
