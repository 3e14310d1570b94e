package dev.outboxstarter.core.capture;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.core.OutboxCaptureException;
import dev.outboxstarter.core.OutboxEvent;
import dev.outboxstarter.core.OutboxEventRouter;
import dev.outboxstarter.core.OutboxRoute;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.env.PropertyResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Decides which events go to the outbox and where: {@link OutboxEventRouter} beans first, then the
 * configured routes merged over the {@link OutboxEvent} annotation. What a class resolves to is
 * worked out once and cached, including a misconfiguration, which is then reported on every capture.
 */
public class EventRouting {

	private static final SpelExpressionParser parser = new SpelExpressionParser(
			new SpelParserConfiguration(SpelCompilerMode.MIXED, EventRouting.class.getClassLoader()));

	private final List<OutboxEventRouter> routers;

	private final Map<String, RouteDefinition> configured;

	private final String defaultTransport;

	private final Set<String> transports;

	private final PropertyResolver placeholders;

	private final Map<Class<?>, Optional<TypeRoute>> byType = new ConcurrentHashMap<>();

	/**
	 * Creates the routing.
	 * @param routers router beans, in order
	 * @param configured routes by fully qualified event class name
	 * @param defaultTransport transport of routes that name none
	 * @param transports names of the available transports
	 * @param placeholders resolves {@code ${...}} in annotation values
	 */
	public EventRouting(List<OutboxEventRouter> routers, Map<String, RouteDefinition> configured,
			String defaultTransport, Set<String> transports, PropertyResolver placeholders) {
		this.routers = List.copyOf(routers);
		this.configured = Map.copyOf(configured);
		this.defaultTransport = defaultTransport;
		this.transports = Set.copyOf(transports);
		this.placeholders = placeholders;
	}

	/**
	 * The routes of an event.
	 * @param event the event
	 * @param aggregate the aggregate it came from, if known
	 * @return its routes, empty when it is not an outbox event
	 * @throws OutboxCaptureException when the event asks for the outbox but cannot be routed
	 */
	List<ResolvedRoute> routesFor(Object event, @Nullable AggregateRef aggregate) {
		for (OutboxEventRouter router : this.routers) {
			OutboxRoute route = router.route(event);
			if (route != null) {
				checkTransport(event.getClass(), route.eventType(), route.transport());
				String key = (route.key() != null) ? route.key() : defaultKey(aggregate);
				return List.of(new ResolvedRoute(route.eventType(), route.transport(), route.destination(), key));
			}
		}
		TypeRoute typeRoute = this.byType.computeIfAbsent(event.getClass(), this::resolve).orElse(null);
		if (typeRoute == null) {
			return List.of();
		}
		return List.of(typeRoute.resolve(event, aggregate));
	}

	private Optional<TypeRoute> resolve(Class<?> type) {
		RouteDefinition configured = configuredFor(type);
		MergedAnnotation<OutboxEvent> annotation = MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY)
			.get(OutboxEvent.class);
		if (configured == null && !annotation.isPresent()) {
			return Optional.empty();
		}
		String eventType = pick(configured != null ? configured.eventType() : null, annotation, "type");
		if (eventType == null) {
			eventType = type.getSimpleName();
		}
		String transport = pick(configured != null ? configured.transport() : null, annotation, "transport");
		if (transport == null) {
			transport = this.defaultTransport;
		}
		String destination = pick(configured != null ? configured.destination() : null, annotation, "destination");
		String key = pick(configured != null ? configured.key() : null, annotation, "key");
		try {
			if (destination == null) {
				throw new OutboxCaptureException(describe(type, eventType) + " is an outbox event but has no destination: "
						+ "set @OutboxEvent(destination = \"...\") on it or the property outbox.routes[" + type.getName()
						+ "].destination");
			}
			checkTransport(type, eventType, transport);
			Expression keyExpression = (key != null) ? parseKey(type, eventType, key) : null;
			return Optional.of(new TypeRoute(type, eventType, transport, destination, key, keyExpression, null));
		}
		catch (OutboxCaptureException ex) {
			return Optional.of(new TypeRoute(type, eventType, transport, "", null, null, ex.getMessage()));
		}
	}

	private @Nullable RouteDefinition configuredFor(Class<?> type) {
		if (this.configured.isEmpty()) {
			return null;
		}
		Set<Class<?>> hierarchy = new LinkedHashSet<>();
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			hierarchy.add(current);
		}
		for (Class<?> current : new ArrayList<>(hierarchy)) {
			hierarchy.addAll(ClassUtils.getAllInterfacesForClassAsSet(current));
		}
		for (Class<?> candidate : hierarchy) {
			RouteDefinition definition = this.configured.get(candidate.getName());
			if (definition != null) {
				return definition;
			}
		}
		return null;
	}

	private @Nullable String pick(@Nullable String configured, MergedAnnotation<OutboxEvent> annotation,
			String attribute) {
		if (StringUtils.hasText(configured)) {
			return configured;
		}
		if (annotation.isPresent()) {
			String value = annotation.getString(attribute);
			if (StringUtils.hasText(value)) {
				return attribute.equals("key") ? value : this.placeholders.resolveRequiredPlaceholders(value);
			}
		}
		return null;
	}

	private void checkTransport(Class<?> type, String eventType, String transport) {
		if (!this.transports.contains(transport)) {
			throw new OutboxCaptureException(describe(type, eventType) + " routes to transport '" + transport
					+ "', but no such transport is available (available: " + String.join(", ", this.transports)
					+ "): add the transport's dependency or route the event to an available one");
		}
	}

	private Expression parseKey(Class<?> type, String eventType, String key) {
		try {
			return parser.parseExpression(key);
		}
		catch (ParseException ex) {
			throw new OutboxCaptureException(describe(type, eventType) + " has an invalid key expression '" + key
					+ "': " + ex.getMessage());
		}
	}

	private static @Nullable String defaultKey(@Nullable AggregateRef aggregate) {
		return (aggregate != null) ? aggregate.idAsString() : null;
	}

	static String describe(Class<?> type, String eventType) {
		return "Event '" + eventType + "' (" + type.getName() + ")";
	}

	private record TypeRoute(Class<?> type, String eventType, String transport, String destination,
			@Nullable String keySource, @Nullable Expression key, @Nullable String misconfiguration) {

		ResolvedRoute resolve(Object event, @Nullable AggregateRef aggregate) {
			if (this.misconfiguration != null) {
				throw new OutboxCaptureException(this.misconfiguration);
			}
			return new ResolvedRoute(this.eventType, this.transport, this.destination, key(event, aggregate));
		}

		private @Nullable String key(Object event, @Nullable AggregateRef aggregate) {
			if (this.key == null) {
				return defaultKey(aggregate);
			}
			try {
				Object value = this.key.getValue(event);
				return (value != null) ? value.toString() : null;
			}
			catch (EvaluationException ex) {
				throw new OutboxCaptureException(describe(this.type, this.eventType) + ": its key expression '"
						+ this.keySource + "' failed: " + ex.getMessage(), ex);
			}
		}

	}

}
