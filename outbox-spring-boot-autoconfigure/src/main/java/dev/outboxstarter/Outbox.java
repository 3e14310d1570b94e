package dev.outboxstarter;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Stores outbox events from code that is not a Spring Data aggregate: plain JDBC, {@code JdbcClient}
 * or JPA without {@code @DomainEvents}. The same rules apply as for aggregate events: the event must
 * be routed (see {@link OutboxEvent}), a transaction must be active, and the event is written with
 * that transaction's other outbox events just before it commits.
 *
 * @since 0.1.0
 */
public interface Outbox {

	/**
	 * Stores an event that belongs to no aggregate. Its message key comes from the route's key
	 * expression, or is absent (no per-key ordering).
	 * @param event the event
	 * @throws OutboxCaptureException if the event is not routed, cannot be serialized, is too large,
	 * or no transaction is active
	 */
	void publish(Object event);

	/**
	 * Stores an event raised by an aggregate. The aggregate id is the default message key.
	 * @param aggregateType logical aggregate type, e.g. {@code Order}
	 * @param aggregateId the aggregate's id
	 * @param event the event
	 * @throws OutboxCaptureException if the event is not routed, cannot be serialized, is too large,
	 * or no transaction is active
	 */
	void publish(String aggregateType, @Nullable Object aggregateId, Object event);

	/**
	 * Stores an event on a route its caller decided, with headers of its own, for code that routes
	 * events by rules of its own (such as an integration with another library's event routing).
	 * Annotations, {@code outbox.routes} properties and {@link OutboxEventRouter} beans are not
	 * consulted. The route's key is the message key as it is ({@code null}: no key).
	 * @param route where the event goes
	 * @param event the event, serialized as the payload
	 * @param headers headers stored and sent with it; they replace headers of the same name that an
	 * {@code EventHeadersContributor} adds, and the outbox's own headers replace them
	 * @throws OutboxCaptureException if the route's transport may not be routed to, the event cannot
	 * be serialized or is too large, or no transaction is active
	 */
	void publish(OutboxRoute route, Object event, Map<String, String> headers);

	/**
	 * Stores an event that belongs to no aggregate, to be published no earlier than the given time
	 * (delayed delivery, see the routing reference). The time counts on this JVM's clock from the
	 * moment of the call: the event is due once that much time has passed since, whatever the
	 * database's clock says. A time that has passed publishes it at once, like {@link #publish(Object)}.
	 * @param event the event
	 * @param deliverAt the earliest time it may be published
	 * @throws OutboxCaptureException if the event is not routed, cannot be serialized, is too large,
	 * or no transaction is active
	 */
	void publish(Object event, Instant deliverAt);

	/**
	 * Stores an event raised by an aggregate, to be published no earlier than the given time, as
	 * {@link #publish(Object, Instant)} does.
	 * @param aggregateType logical aggregate type, e.g. {@code Order}
	 * @param aggregateId the aggregate's id
	 * @param event the event
	 * @param deliverAt the earliest time it may be published
	 * @throws OutboxCaptureException if the event is not routed, cannot be serialized, is too large,
	 * or no transaction is active
	 */
	void publish(String aggregateType, @Nullable Object aggregateId, Object event, Instant deliverAt);

}
