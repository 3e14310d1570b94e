package dev.outboxstarter.modulith;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.core.OutboxProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Finds whether the outbox's own rules route an event, by the same rules as the outbox's capture:
 * an {@link OutboxEventRouter} bean that returns routes for it, an {@link OutboxEvent} annotation in
 * its class hierarchy, or an {@code outbox.routes} entry for its class, a superclass or an interface.
 * Such an event is captured by the outbox when it is published, whatever Modulith does with it.
 */
final class OutboxOwnRoutes {

	private final List<OutboxEventRouter> routers;

	private final Map<String, OutboxProperties.Route> configured;

	/** What the annotations and properties give each class, which a class keeps. */
	private final Map<Class<?>, List<String>> byClass = new ConcurrentHashMap<>();

	/**
	 * Creates the rules.
	 * @param routers the router beans, in order
	 * @param configured the {@code outbox.routes} entries, by fully qualified class name
	 */
	OutboxOwnRoutes(List<OutboxEventRouter> routers, Map<String, OutboxProperties.Route> configured) {
		this.routers = List.copyOf(routers);
		this.configured = Map.copyOf(configured);
	}

	/**
	 * Describes the routes the outbox's own rules give an event, each with what declares it.
	 * @param event the event
	 * @return the descriptions, empty when the outbox's own rules do not route it
	 */
	List<String> describe(Object event) {
		for (OutboxEventRouter router : this.routers) {
			List<OutboxRoute> routed = router.routes(event);
			if (!routed.isEmpty()) {
				// The outbox asks its routers first and looks no further once one routes the event.
				String declaredBy = " (the OutboxEventRouter " + ClassUtils.getUserClass(router).getName() + ")";
				return routed.stream().map((route) -> to(route.transport(), route.destination()) + declaredBy).toList();
			}
		}
		return this.byClass.computeIfAbsent(event.getClass(), this::describe);
	}

	private List<String> describe(Class<?> type) {
		List<String> routes = new ArrayList<>();
		List<MergedAnnotation<OutboxEvent>> annotations = MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY)
			.stream(OutboxEvent.class)
			.toList();
		// As the outbox: the annotations of the nearest annotated class in the hierarchy.
		int nearest = annotations.stream().mapToInt(MergedAnnotation::getAggregateIndex).min().orElse(0);
		annotations.stream()
			.filter((annotation) -> annotation.getAggregateIndex() == nearest)
			.map(MergedAnnotation::synthesize)
			.forEach((annotation) -> routes
				.add(to(annotation.transport(), annotation.destination()) + " (@OutboxEvent)"));
		for (Class<?> candidate : hierarchy(type)) {
			OutboxProperties.Route route = this.configured.get(candidate.getName());
			if (route != null) {
				routes.add(to(route.getTransport(), route.getDestination()) + " (outbox.routes[" + candidate.getName()
						+ "])");
				break;
			}
		}
		return List.copyOf(routes);
	}

	private static String to(@Nullable String transport, @Nullable String destination) {
		String where = StringUtils.hasText(destination) ? "'" + destination + "'" : "its default destination";
		return where + " on " + (StringUtils.hasText(transport) ? transport : "the default transport");
	}

	private static Set<Class<?>> hierarchy(Class<?> type) {
		Set<Class<?>> hierarchy = new LinkedHashSet<>();
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			hierarchy.add(current);
		}
		for (Class<?> current : List.copyOf(hierarchy)) {
			hierarchy.addAll(ClassUtils.getAllInterfacesForClassAsSet(current));
		}
		return hierarchy;
	}

}
