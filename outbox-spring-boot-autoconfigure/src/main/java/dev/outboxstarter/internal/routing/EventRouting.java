package dev.outboxstarter.internal.routing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxRoute;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.PropertyResolver;
import org.springframework.util.StringUtils;

/**
 * Decides which events go to the outbox and where: {@link OutboxEventRouter} beans first, then the
 * {@link OutboxEvent} annotations of the event's class, with {@code outbox.routes} properties merged
 * over the annotation of the same transport (or added as a route of their own). What a class resolves
 * to is worked out once and cached, including a misconfiguration, which is then reported on every
 * capture.
 */
public class EventRouting {

	private final List<OutboxEventRouter> routers;

	private final RoutableTransports transports;

	private final RouteFormats formats;

	private final RouteDefinitions definitions;

	private final Map<Class<?>, ClassRoutes> byClass = new ConcurrentHashMap<>();

	/**
	 * Creates the routing.
	 * @param routers router beans, in order
	 * @param configured routes by fully qualified event class name
	 * @param transports the transports events may be routed to
	 * @param formats the message formats
	 * @param placeholders resolves {@code ${...}} in annotation values
	 * @throws OutboxConfigurationException when a configured route names a class that does not exist, a
	 * transport that may not be routed to, a key expression that does not parse or a format that cannot
	 * be used, naming the property
	 */
	public EventRouting(List<OutboxEventRouter> routers, Map<String, RouteDefinition> configured,
			RoutableTransports transports, RouteFormats formats, PropertyResolver placeholders) {
		this.routers = List.copyOf(routers);
		this.transports = transports;
		this.formats = formats;
		this.definitions = new RouteDefinitions(new ConfiguredRoutes(configured, transports, formats), transports,
				placeholders);
	}

	/**
	 * The routes of an event, one per destination.
	 * @param event the event
	 * @return its routes, empty when it is not an outbox event
	 * @throws OutboxCaptureException when the event asks for the outbox but cannot be routed
	 */
	public EventRoutes routesFor(Object event) {
		Class<?> type = event.getClass();
		for (OutboxEventRouter router : this.routers) {
			List<OutboxRoute> routes = router.routes(event);
			if (!routes.isEmpty()) {
				return routesFor(event, routes);
			}
		}
		return this.byClass.computeIfAbsent(type, this::resolve).resolve(event);
	}

	/**
	 * The routes of an event whose routes its caller decided, as a router would have.
	 * @param event the event
	 * @param routes where it goes, keys as they are
	 * @return its routes
	 * @throws OutboxCaptureException when a route names a transport events may not be routed to
	 */
	public EventRoutes routesFor(Object event, List<OutboxRoute> routes) {
		Class<?> type = event.getClass();
		List<ResolvedRoute> resolved = new ArrayList<>(routes.size());
		for (OutboxRoute route : routes) {
			this.transports.checkRouted(type, route.eventType(), route.transport());
			resolved.add(new ResolvedRoute(route.eventType(), route.transport(), route.destination(), route.key(),
					this.formats.headers(type, route.eventType(), route.format())));
		}
		return EventRoutes.of(type, resolved);
	}

	/**
	 * Refuses an event that would wait for its time when no event can: the log relay publishes every
	 * event as it is written. An event is delayed by the time it was asked to be published at, if that
	 * time has not come, or else by its routes' delays.
	 * @param routes the event's routes
	 * @param deliverAt the time it was asked to be published at, if any, which takes the place of its routes'
	 * delays
	 * @throws OutboxCaptureException if it is delayed and events cannot be
	 */
	public void checkDelayable(EventRoutes routes, @Nullable Instant deliverAt) {
		boolean asked = deliverAt != null && deliverAt.isAfter(Instant.now());
		for (ResolvedRoute route : routes.routes()) {
			if ((deliverAt != null) ? asked : route.delay() != null) {
				this.transports.checkDelayed(route.eventType(), route.destination());
			}
		}
	}

	private ClassRoutes resolve(Class<?> type) {
		List<RouteDefinition> definitions;
		try {
			definitions = this.definitions.of(type);
		}
		catch (IllegalArgumentException ex) {
			// A ${...} placeholder of an annotation that no property resolves.
			return ClassRoutes.misconfigured(EventRoutes.describe(type, type.getSimpleName())
					+ " has an @OutboxEvent value that cannot be resolved: " + ex.getMessage()
					+ ": set the property, or give the placeholder a default (${name:default})");
		}
		catch (OutboxCaptureException ex) {
			return ClassRoutes.misconfigured(ex.getMessage());
		}
		if (definitions.isEmpty()) {
			return ClassRoutes.NONE;
		}
		List<ClassRoute> routes = new ArrayList<>(definitions.size());
		for (RouteDefinition definition : definitions) {
			String eventType = StringUtils.hasText(definition.eventType()) ? definition.eventType() : type.getSimpleName();
			try {
				routes.add(ClassRoute.compile(type, eventType, definition, this.transports, this.formats));
			}
			catch (OutboxCaptureException ex) {
				return ClassRoutes.misconfigured(ex.getMessage());
			}
		}
		return new ClassRoutes(routes, null);
	}

	/**
	 * What a class resolves to: its routes, or why it cannot be routed.
	 */
	private record ClassRoutes(List<ClassRoute> routes, @Nullable String misconfiguration) {

		static final ClassRoutes NONE = new ClassRoutes(List.of(), null);

		static ClassRoutes misconfigured(String misconfiguration) {
			return new ClassRoutes(List.of(), misconfiguration);
		}

		EventRoutes resolve(Object event) {
			if (this.misconfiguration != null) {
				throw new OutboxCaptureException(this.misconfiguration);
			}
			if (this.routes.isEmpty()) {
				return EventRoutes.none();
			}
			if (this.routes.size() == 1) {
				return EventRoutes.of(event.getClass(), List.of(this.routes.get(0).resolve(event)));
			}
			List<ResolvedRoute> resolved = new ArrayList<>(this.routes.size());
			for (ClassRoute route : this.routes) {
				resolved.add(route.resolve(event));
			}
			return EventRoutes.of(event.getClass(), resolved);
		}

	}

}
