package dev.outboxstarter;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an event type as an outbox event: when an instance is published inside a transaction (by a
 * Spring Data aggregate's {@code @DomainEvents}, an {@code ApplicationEventPublisher} or the
 * {@link Outbox} API), it is written to the outbox table in that transaction and published to
 * {@link #destination()} after the commit, at least once.
 * <p>
 * Repeat the annotation to send the event to several destinations, e.g. a Kafka topic for internal
 * consumers and a RabbitMQ exchange for a partner: each destination gets its own outbox row, published
 * and retried on its own, so one that is down does not hold up the others.
 * <p>
 * Event types without this annotation, without an {@code outbox.routes} entry and not claimed by an
 * {@link OutboxEventRouter} stay ordinary application events.
 *
 * @since 0.1.0
 * @see Outbox
 * @see OutboxEventRouter
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@Repeatable(OutboxEvent.List.class)
public @interface OutboxEvent {

	/**
	 * Stable logical name of the event, stored in the {@code event_type} column and sent as the
	 * {@code outbox-event-type} header. Defaults to the simple class name. Never a JVM class name, so
	 * classes can be renamed without breaking consumers.
	 */
	String type() default "";

	/**
	 * Where the event goes: a Kafka topic, a RabbitMQ {@code exchange/routing-key}, the name of an
	 * {@code @OutboxHandler} for the {@code local} transport. {@code ${...}} placeholders are resolved
	 * once; {@code #{...}} expressions are evaluated against each event, e.g.
	 * {@code "orders/order.#{status}"}. When empty, the destination must come from
	 * {@code outbox.routes[<class name>].destination}.
	 */
	String destination() default "";

	/**
	 * SpEL expression evaluated against the event that gives the message key, which is also the
	 * ordering key within the destination. Defaults to the id of the aggregate that raised the event.
	 */
	String key() default "";

	/**
	 * Transport that publishes the event: {@code kafka}, {@code rabbit}, {@code local} or the name of
	 * a custom transport. Defaults to {@code outbox.default-transport}.
	 */
	String transport() default "";

	/**
	 * How the message is laid out on the broker: {@code outbox} (the outbox's own headers) or
	 * {@code cloudevents} (CloudEvents 1.0, binary content mode). Defaults to
	 * {@code outbox.message-format}. {@code ${...}} placeholders are resolved once.
	 * @see MessageFormat
	 */
	String format() default "";

	/**
	 * The format of the payload: {@code json}, or the {@link dev.outboxstarter.spi.OutboxPayloadSerializer#format()
	 * name} of a serializer bean, such as {@code avro} or {@code protobuf} with the
	 * {@code outbox-schema-registry} module. Defaults to the format of a serializer that claims the event's
	 * type (the classes Avro and Protobuf generate), else {@code outbox.payload-format}. {@code ${...}}
	 * placeholders are resolved once.
	 */
	String payloadFormat() default "";

	/**
	 * How long after it is raised (published to the outbox in its transaction, not when that transaction
	 * commits) the event may be published at the earliest, as an ISO-8601 duration ({@code PT15M}) or in
	 * Spring Boot's simple form ({@code 15m}); empty for at once.
	 * {@code ${...}} placeholders are resolved once. A delayed event is left to the relay, which
	 * publishes it within about one poll interval of its time. By default it leaves its key's order: the
	 * later events of its key do not wait for it (see {@link #delayHoldsKey()}).
	 */
	String delay() default "";

	/**
	 * Whether a delayed event keeps its place in its key's order: the events of its key committed after
	 * it wait until it is published, for its whole delay. Off by default, when a delayed event holds back
	 * no other event. Has no effect on events published at once.
	 */
	boolean delayHoldsKey() default false;

	/**
	 * Holds repeated {@link OutboxEvent} annotations.
	 */
	@Target(ElementType.TYPE)
	@Retention(RetentionPolicy.RUNTIME)
	@Inherited
	@Documented
	@interface List {

		OutboxEvent[] value();

	}

}
