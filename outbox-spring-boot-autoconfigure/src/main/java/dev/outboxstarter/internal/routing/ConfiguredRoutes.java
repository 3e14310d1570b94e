package dev.outboxstarter.internal.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * The routes of the {@code outbox.routes} properties by the name of their event class, checked as the
 * application starts: a route whose class name has a typo would never match, and the events it was
 * meant for would stay ordinary application events.
 */
final class ConfiguredRoutes {

	private final Map<String, RouteDefinition> byClassName;

	/**
	 * Checks the configured routes.
	 * @param configured routes by fully qualified event class name
	 * @param transports the transports events may be routed to
	 * @param formats the message formats
	 * @throws OutboxConfigurationException when a route names a class that does not exist, a transport
	 * that may not be routed to, a key expression that does not parse, a format that cannot be used or a
	 * negative delay or a delay the relay cannot keep, naming the property
	 */
	ConfiguredRoutes(Map<String, RouteDefinition> configured, RoutableTransports transports, RouteFormats formats) {
		Map<String, RouteDefinition> byClassName = new HashMap<>();
		configured.forEach((name, route) -> {
			String property = "outbox.routes[" + name + "]";
			Class<?> type;
			try {
				type = ClassUtils.forName(name, ClassUtils.getDefaultClassLoader());
			}
			catch (ClassNotFoundException | LinkageError ex) {
				throw new OutboxConfigurationException(property + " names no class on the classpath",
						"Put the event's fully qualified class name in the brackets, e.g. "
								+ "outbox.routes[com.acme.billing.InvoiceIssued].destination");
			}
			transports.checkConfigured(property, transports.orDefault(route.transport()));
			if (StringUtils.hasText(route.key())) {
				try {
					ClassRoute.parser.parseExpression(route.key());
				}
				catch (ParseException ex) {
					throw new OutboxConfigurationException(property + ".key '" + route.key()
							+ "' is not a valid SpEL expression: " + ex.getMessage(),
							"Correct the expression, e.g. #event.orderId() or #aggregate.id");
				}
			}
			if (route.delay() != null && route.delay().isNegative()) {
				throw new OutboxConfigurationException(property + ".delay is " + route.delay()
						+ ", a negative delay: an event cannot be published before it is written",
						"Give a positive duration (e.g. 15m or PT15M), or remove the property to publish at once");
			}
			if (route.delay() != null && !route.delay().isZero()) {
				transports.checkDelayConfigured(property);
			}
			if (StringUtils.hasText(route.format())) {
				formats.checkConfigured(property, route.format());
			}
			// A nested class may be written Outer.Inner; the routes are looked up by Outer$Inner.
			byClassName.put(type.getName(), route);
		});
		this.byClassName = Map.copyOf(byClassName);
	}

	/**
	 * The route configured for a class, its superclasses or its interfaces, the nearest first.
	 * @param type the event's class
	 * @return the route, or {@code null} if none is configured
	 */
	@Nullable RouteDefinition of(Class<?> type) {
		if (this.byClassName.isEmpty()) {
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
			RouteDefinition definition = this.byClassName.get(candidate.getName());
			if (definition != null) {
				return definition;
			}
		}
		return null;
	}

}
