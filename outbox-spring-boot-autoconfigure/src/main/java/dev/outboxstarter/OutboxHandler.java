package dev.outboxstarter;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a bean method as the handler of the {@code local} outbox destination {@link #value()}: work
 * the application must do reliably in its own process once a business transaction has committed
 * (send an e-mail, update another aggregate).
 * <p>
 * Route events to it with {@code @OutboxEvent(transport = "local", destination = "<name>")}. The
 * method takes the event (deserialized from the outbox row into the parameter's type) and, optionally,
 * the {@link dev.outboxstarter.spi.OutboxMessage} for its id and headers. It runs in a new
 * transaction of the application's transaction manager, after the transaction that raised the event
 * committed, never for one that rolled back. Returning normally marks the event published; throwing
 * counts a failed attempt, retried with {@code outbox.retry.*} backoff until it is DEAD.
 * <p>
 * Delivery is at least once: a handler can run again for the same event (e.g. after a crash between
 * its commit and the outbox's), so make it idempotent, for example by the message id.
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(OutboxHandlerReflectiveProcessor.class)
public @interface OutboxHandler {

	/**
	 * The destination name events are routed to.
	 */
	String value();

}
