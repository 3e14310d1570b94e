package dev.outboxstarter;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Makes a {@code @KafkaListener} or {@code @RabbitListener} method process each outbox message once:
 * the method runs in a transaction with the insert of the message's id into the inbox, and a message
 * id this consumer already processed is skipped (see {@link Inbox}). The method must take the record
 * or message with its headers: a Kafka {@code ConsumerRecord}, a Spring AMQP {@code Message} or a
 * Spring {@code Message}. Needs {@code outbox.inbox.enabled=true}.
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective
public @interface IdempotentConsumer {

	/**
	 * The consumer's name, under which processed ids are recorded. Two methods that must each process
	 * every message need different names; instances of one service share theirs.
	 * @return the name; empty for {@code <simple class name>.<method name>}
	 */
	String value() default "";

}
