package dev.outboxstarter.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Annotation for a test class that wants the outbox: in a test slice such as {@code @DataJpaTest},
 * which auto-configures only what its technology needs and so leaves outbox events as ordinary
 * application events, it captures them into the outbox table as the application does. In any test
 * it adds {@link CapturedOutboxEvents}, {@link PublishedOutboxEvents} and {@link TestOutboxRelay},
 * and records what {@link #recordedTransports() some transports} publish instead of sending it.
 * <p>
 * The auto-configurations it imports are listed in
 * {@code META-INF/spring/dev.outboxstarter.test.AutoConfigureOutbox.imports}.
 *
 * @since 0.1.0
 * @see CapturedOutboxEvents
 * @see PublishedOutboxEvents
 * @see TestOutboxRelay
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("outbox.test")
public @interface AutoConfigureOutbox {

	/**
	 * Transports whose messages a {@link RecordingOutboxTransport} records instead of sending, so that
	 * the test needs no broker; they then count as published at once. Kafka and RabbitMQ by default;
	 * an empty array sends every event through the application's own transports.
	 * @return the names of the transports to record
	 */
	String[] recordedTransports() default { "kafka", "rabbit" };

}
