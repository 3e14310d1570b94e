package dev.outboxstarter;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Routes events the application cannot annotate with {@link OutboxEvent}, e.g. types from another
 * library. Declare it as a bean; every router is asked, in order, before annotations and
 * {@code outbox.routes} properties are looked at. Override {@link #routes} to send an event to
 * several destinations.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface OutboxEventRouter {

	/**
	 * Returns the route of an event, or {@code null} when this router does not handle it (it then
	 * stays an ordinary application event unless another rule routes it).
	 * @param event the published event
	 * @return the route or {@code null}
	 */
	@Nullable OutboxRoute route(Object event);

	/**
	 * Returns every route of an event, each becoming its own outbox row; empty when this router does not
	 * handle it. By default the single {@link #route} if there is one.
	 * @param event the published event
	 * @return the routes, possibly empty
	 */
	default List<OutboxRoute> routes(Object event) {
		OutboxRoute route = route(event);
		return (route != null) ? List.of(route) : List.of();
	}

}
