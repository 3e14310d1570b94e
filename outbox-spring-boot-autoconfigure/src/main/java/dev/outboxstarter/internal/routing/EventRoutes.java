package dev.outboxstarter.internal.routing;

import java.util.List;

import dev.outboxstarter.OutboxCaptureException;
import org.jspecify.annotations.Nullable;

/**
 * The routes of one event, one per destination, as far as the event alone decides them: a route
 * without a key of its own is keyed by the id of the aggregate the event came from, which the capture
 * may learn only later (a new aggregate's id once a flush has inserted it). Every value is checked
 * against the outbox table's column it is stored in: a longer one would fail the commit with the
 * database's error, or be cut short by a MySQL without strict mode, publishing the event to another
 * destination or key.
 */
public final class EventRoutes {

	/** Characters the outbox table's event_type, destination and message_key columns hold. */
	private static final int MAX_COLUMN_LENGTH = 255;

	private static final EventRoutes NONE = new EventRoutes(Object.class, List.of());

	private final Class<?> type;

	private final List<ResolvedRoute> routes;

	private EventRoutes(Class<?> type, List<ResolvedRoute> routes) {
		this.type = type;
		this.routes = routes;
	}

	static EventRoutes none() {
		return NONE;
	}

	/**
	 * The routes of an event, checked.
	 * @param type the event's class
	 * @param routes its routes, with a {@code null} key for those keyed by the aggregate's id
	 * @throws OutboxCaptureException when a value is longer than its column holds
	 */
	static EventRoutes of(Class<?> type, List<ResolvedRoute> routes) {
		for (ResolvedRoute route : routes) {
			checkLength(type, route.eventType(), "event type", "event_type", route.eventType());
			checkLength(type, route.eventType(), "destination", "destination", route.destination());
			checkLength(type, route.eventType(), "message key", "message_key", route.key());
		}
		return new EventRoutes(type, routes);
	}

	/**
	 * Whether the event has no route: it is not an outbox event.
	 * @return whether there is no route
	 */
	public boolean isEmpty() {
		return this.routes.isEmpty();
	}

	/**
	 * Names the event for a message: its logical type and its class.
	 * @return e.g. {@code Event 'OrderPlaced' (com.acme.OrderPlaced)}
	 */
	public String describeEvent() {
		return describe(this.type, this.routes.get(0).eventType());
	}

	/**
	 * The routes, those without a key of their own with a {@code null} key (see {@link #keyOf}).
	 * @return the routes
	 */
	public List<ResolvedRoute> routes() {
		return this.routes;
	}

	/**
	 * The message key of a route's event: the route's own, or else the id of the aggregate the event
	 * came from.
	 * @param route one of {@link #routes()}
	 * @param aggregateId the id of the aggregate the event came from, if known
	 * @return the key, {@code null} for none
	 * @throws OutboxCaptureException when the aggregate's id is longer than a key may be
	 */
	public @Nullable String keyOf(ResolvedRoute route, @Nullable String aggregateId) {
		if (route.key() != null) {
			return route.key();
		}
		checkLength(this.type, route.eventType(), "message key", "message_key", aggregateId);
		return aggregateId;
	}

	private static void checkLength(Class<?> type, String eventType, String name, String column,
			@Nullable String value) {
		if (value != null && value.length() > MAX_COLUMN_LENGTH) {
			throw new OutboxCaptureException(describe(type, eventType) + ": its " + name + " is " + value.length()
					+ " characters long, more than the " + MAX_COLUMN_LENGTH + " the outbox table's " + column
					+ " column holds: make it shorter (a key can be a hash of a longer value)");
		}
	}

	static String describe(Class<?> type, String eventType) {
		return "Event '" + eventType + "' (" + type.getName() + ")";
	}

}
