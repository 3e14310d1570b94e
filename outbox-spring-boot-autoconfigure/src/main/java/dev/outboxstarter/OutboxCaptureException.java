package dev.outboxstarter;

/**
 * An outbox event was refused when it was captured: not serializable, too large, without a route, or
 * published with no transaction active. Thrown to the code that raised the event, so the business
 * transaction rolls back and nothing is lost silently.
 *
 * @since 0.1.0
 */
public class OutboxCaptureException extends RuntimeException {

	public OutboxCaptureException(String message) {
		super(message);
	}

	public OutboxCaptureException(String message, Throwable cause) {
		super(message, cause);
	}

}
