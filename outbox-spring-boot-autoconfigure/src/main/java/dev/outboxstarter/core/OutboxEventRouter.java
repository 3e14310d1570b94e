package dev.outboxstarter.core;

import org.jspecify.annotations.Nullable;

/**
 * Routes events the application cannot annotate with {@link OutboxEvent}, e.g. types from another
 * library. Declare it as a bean; every router is asked, in order, before annotations and
 * {@code outbox.routes} properties are looked at.
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

}
