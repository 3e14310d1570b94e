package dev.outboxstarter.internal.routing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.internal.capture.AggregateRef;
import dev.outboxstarter.spi.CloudEventAttributes;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.env.PropertyResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Decides which events go to the outbox and where: {@link OutboxEventRouter} beans first, then the
 * {@link OutboxEvent} annotations of the event's class, with {@code outbox.routes} properties merged
 * over the annotation of the same transport (or added as a route of their own). What a class resolves
 * to is worked out once and cached, including a misconfiguration, which is then reported on every
 * capture.
 */
public class EventRouting {

	private static final SpelExpressionParser parser = new SpelExpressionParser(
			new SpelParserConfiguration(SpelCompilerMode.MIXED, EventRouting.class.getClassLoader()));

	private static final TemplateParserContext template = new TemplateParserContext();

	/**
	 * Characters the outbox table's event_type, destination and message_key columns hold. A longer
	 * value would fail the commit with the database's error, or be cut short by a MySQL without strict
	 * mode, publishing the event to another destination or key.
	 */
	private static final int MAX_COLUMN_LENGTH = 255;

	private final List<OutboxEventRouter> routers;

	private final Map<String, RouteDefinition> configured;

	private final String defaultTransport;

	private final Set<String> transports;

	private final @Nullable String whyOthersAreNot;

	private final PropertyResolver placeholders;

	private final MessageFormat defaultFormat;

	private final @Nullable String cloudEventSource;

	private final Map<Class<?>, TypeRoutes> byType = new ConcurrentHashMap<>();

	/**
	 * Creates the routing.
	 * @param routers router beans, in order
	 * @param configured routes by fully qualified event class name
	 * @param defaultTransport transport of routes that name none
	 * @param transports names of the transports events may be routed to
	 * @param whyOthersAreNot why other transports may not be routed to and what to do instead, or
	 * {@code null} when the others are simply missing (their dependency is not there)
	 * @param placeholders resolves {@code ${...}} in annotation values
	 * @param defaultFormat message format of routes that name none
	 * @param cloudEventSource the CloudEvents {@code source} of events captured as CloudEvents, or
	 * {@code null} when none is configured
	 * @throws IllegalStateException when a configured route names a class that does not exist, a
	 * transport that may not be routed to, a key expression that does not parse or a format that does not
	 * exist, or when CloudEvents are asked for without a source, naming the property
	 */
	public EventRouting(List<OutboxEventRouter> routers, Map<String, RouteDefinition> configured,
			String defaultTransport, Set<String> transports, @Nullable String whyOthersAreNot,
			PropertyResolver placeholders, MessageFormat defaultFormat, @Nullable String cloudEventSource) {
		this.whyOthersAreNot = whyOthersAreNot;
		this.routers = List.copyOf(routers);
		this.defaultTransport = defaultTransport;
		this.transports = Set.copyOf(transports);
		this.placeholders = placeholders;
		this.defaultFormat = defaultFormat;
		this.cloudEventSource = cloudEventSource;
		if (defaultFormat == MessageFormat.CLOUDEVENTS && cloudEventSource == null) {
			throw new OutboxConfigurationException("outbox.message-format=cloudevents needs a CloudEvents source, "
					+ "the application that publishes the events", "Set outbox.cloudevents.source (e.g. /orders or "
							+ "https://acme.com/orders), or spring.application.name, which it defaults to");
		}
		this.configured = checkedRoutes(configured);
	}

	/**
	 * The configured routes by the name of their class, checked: a route whose class name has a typo
	 * would never match, and the events it was meant for would stay ordinary application events.
	 */
	private Map<String, RouteDefinition> checkedRoutes(Map<String, RouteDefinition> configured) {
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
			String transport = transportOf(route.transport());
			if (!this.transports.contains(transport)) {
				throw new OutboxConfigurationException(property + " routes to transport '" + transport
						+ "', but no such transport is available (available: " + available() + ")",
						((this.whyOthersAreNot != null) ? this.whyOthersAreNot + ", or set "
								: "Add the transport's dependency or set ")
								+ property + ".transport to an available one");
			}
			if (StringUtils.hasText(route.key())) {
				try {
					parser.parseExpression(route.key());
				}
				catch (ParseException ex) {
					throw new OutboxConfigurationException(property + ".key '" + route.key()
							+ "' is not a valid SpEL expression: " + ex.getMessage(),
							"Correct the expression, e.g. #event.orderId() or #aggregate.id");
				}
			}
			if (StringUtils.hasText(route.format())) {
				MessageFormat format = MessageFormat.named(route.format());
				if (format == null) {
					throw new OutboxConfigurationException(
							property + ".format '" + route.format() + "' is not a message format",
							"Use 'outbox' or 'cloudevents'");
				}
				if (format == MessageFormat.CLOUDEVENTS && this.cloudEventSource == null) {
					throw new OutboxConfigurationException(property + ".format=cloudevents needs a CloudEvents "
							+ "source, the application that publishes the events", "Set outbox.cloudevents.source "
									+ "(e.g. /orders), or spring.application.name, which it defaults to");
				}
			}
			// A nested class may be written Outer.Inner; the routes are looked up by Outer$Inner.
			byClassName.put(type.getName(), route);
		});
		return Map.copyOf(byClassName);
	}

	/**
	 * The routes of an event, one per destination.
	 * @param event the event
	 * @param aggregate the aggregate it came from, if known
	 * @return its routes, empty when it is not an outbox event
	 * @throws OutboxCaptureException when the event asks for the outbox but cannot be routed
	 */
	public List<ResolvedRoute> routesFor(Object event, @Nullable AggregateRef aggregate) {
		for (OutboxEventRouter router : this.routers) {
			List<OutboxRoute> routes = router.routes(event);
			if (!routes.isEmpty()) {
				List<ResolvedRoute> resolved = new ArrayList<>(routes.size());
				for (OutboxRoute route : routes) {
					checkTransport(event.getClass(), route.eventType(), route.transport());
					String key = (route.key() != null) ? route.key() : defaultKey(aggregate);
					MessageFormat format = (route.format() != null) ? route.format() : this.defaultFormat;
					resolved.add(checked(event.getClass(), new ResolvedRoute(route.eventType(), route.transport(),
							route.destination(), key, formatHeaders(event.getClass(), route.eventType(), format))));
				}
				return resolved;
			}
		}
		List<ResolvedRoute> resolved = this.byType.computeIfAbsent(event.getClass(), this::resolve)
			.resolve(event, aggregate);
		resolved.forEach((route) -> checked(event.getClass(), route));
		return resolved;
	}

	private static ResolvedRoute checked(Class<?> type, ResolvedRoute route) {
		checkLength(type, route, "event type", "event_type", route.eventType());
		checkLength(type, route, "destination", "destination", route.destination());
		checkLength(type, route, "message key", "message_key", route.key());
		return route;
	}

	private static void checkLength(Class<?> type, ResolvedRoute route, String name, String column,
			@Nullable String value) {
		if (value != null && value.length() > MAX_COLUMN_LENGTH) {
			throw new OutboxCaptureException(describe(type, route.eventType()) + ": its " + name + " is "
					+ value.length() + " characters long, more than the " + MAX_COLUMN_LENGTH + " the outbox table's "
					+ column + " column holds: make it shorter (a key can be a hash of a longer value)");
		}
	}

	private TypeRoutes resolve(Class<?> type) {
		List<RouteDefinition> definitions;
		try {
			definitions = definitions(type);
		}
		catch (IllegalArgumentException ex) {
			// A ${...} placeholder of an annotation that no property resolves.
			return new TypeRoutes(List.of(), describe(type, type.getSimpleName())
					+ " has an @OutboxEvent value that cannot be resolved: " + ex.getMessage()
					+ ": set the property, or give the placeholder a default (${name:default})");
		}
		if (definitions.isEmpty()) {
			return TypeRoutes.NONE;
		}
		List<TypeRoute> routes = new ArrayList<>(definitions.size());
		for (RouteDefinition definition : definitions) {
			String eventType = StringUtils.hasText(definition.eventType()) ? definition.eventType() : type.getSimpleName();
			try {
				routes.add(compile(type, eventType, definition));
			}
			catch (OutboxCaptureException ex) {
				return new TypeRoutes(List.of(), ex.getMessage());
			}
		}
		return new TypeRoutes(routes, null);
	}

	/**
	 * The class's annotations (the nearest annotated class in its hierarchy), each with the configured
	 * route of the same transport merged over it; a configured route with no annotation of its
	 * transport is a route of its own.
	 */
	private List<RouteDefinition> definitions(Class<?> type) {
		List<MergedAnnotation<OutboxEvent>> annotations = MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY)
			.stream(OutboxEvent.class)
			.toList();
		int nearest = annotations.stream().mapToInt(MergedAnnotation::getAggregateIndex).min().orElse(0);
		List<RouteDefinition> definitions = new ArrayList<>();
		for (MergedAnnotation<OutboxEvent> annotation : annotations) {
			if (annotation.getAggregateIndex() == nearest) {
				definitions.add(new RouteDefinition(text(annotation, "type"), transportOf(text(annotation, "transport")),
						text(annotation, "destination"), annotation.getString("key"), text(annotation, "format")));
			}
		}
		RouteDefinition configured = configuredFor(type);
		if (configured != null) {
			String transport = transportOf(configured.transport());
			int index = indexOfTransport(definitions, transport);
			RouteDefinition base = (index >= 0) ? definitions.get(index)
					: new RouteDefinition(definitions.isEmpty() ? null : definitions.get(0).eventType(), transport, null,
							null, null);
			RouteDefinition merged = new RouteDefinition(pick(configured.eventType(), base.eventType()), transport,
					pick(configured.destination(), base.destination()), pick(configured.key(), base.key()),
					pick(configured.format(), base.format()));
			if (index >= 0) {
				definitions.set(index, merged);
			}
			else {
				definitions.add(merged);
			}
		}
		return definitions;
	}

	private TypeRoute compile(Class<?> type, String eventType, RouteDefinition definition) {
		String transport = Objects.requireNonNull(definition.transport());
		String destination = definition.destination();
		if (!StringUtils.hasText(destination)) {
			throw new OutboxCaptureException(describe(type, eventType) + " is an outbox event but has no destination"
					+ ((transport.equals(this.defaultTransport)) ? "" : " for transport '" + transport + "'")
					+ ": set @OutboxEvent(destination = \"...\") on it or the property outbox.routes[" + type.getName()
					+ "].destination");
		}
		checkTransport(type, eventType, transport);
		Expression[] destinationParts = destination.contains(template.getExpressionPrefix())
				? parts(parse(type, eventType, "destination", destination, true)) : null;
		String key = definition.key();
		Expression keyExpression = StringUtils.hasText(key) ? parse(type, eventType, "key", key, false) : null;
		return new TypeRoute(type, eventType, transport, destination, destinationParts, key, keyExpression,
				formatHeaders(type, eventType, formatOf(type, eventType, definition.format())));
	}

	private MessageFormat formatOf(Class<?> type, String eventType, @Nullable String name) {
		if (!StringUtils.hasText(name)) {
			return this.defaultFormat;
		}
		MessageFormat format = MessageFormat.named(name);
		if (format == null) {
			throw new OutboxCaptureException(describe(type, eventType) + " asks for the message format '" + name
					+ "', which does not exist: use 'outbox' or 'cloudevents' in @OutboxEvent(format = ...) or "
					+ "outbox.routes[" + type.getName() + "].format");
		}
		return format;
	}

	/**
	 * The headers stored with each event of a route, which record its format: the relay that publishes
	 * the event may run on another instance, configured otherwise, and must publish it as it was captured.
	 */
	private Map<String, String> formatHeaders(Class<?> type, String eventType, MessageFormat format) {
		if (format == MessageFormat.OUTBOX) {
			return Map.of();
		}
		if (this.cloudEventSource == null) {
			throw new OutboxCaptureException(describe(type, eventType) + " is published as a CloudEvent, which needs "
					+ "a source, the application that publishes it: set outbox.cloudevents.source (e.g. /orders), "
					+ "or spring.application.name, which it defaults to");
		}
		return CloudEventAttributes.storedHeaders(this.cloudEventSource);
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

	private @Nullable String text(MergedAnnotation<OutboxEvent> annotation, String attribute) {
		String value = annotation.getString(attribute);
		return StringUtils.hasText(value) ? this.placeholders.resolveRequiredPlaceholders(value) : null;
	}

	private String transportOf(@Nullable String transport) {
		return StringUtils.hasText(transport) ? transport : this.defaultTransport;
	}

	private static int indexOfTransport(List<RouteDefinition> definitions, String transport) {
		for (int i = 0; i < definitions.size(); i++) {
			if (transport.equals(definitions.get(i).transport())) {
				return i;
			}
		}
		return -1;
	}

	private static @Nullable String pick(@Nullable String preferred, @Nullable String fallback) {
		return StringUtils.hasText(preferred) ? preferred : fallback;
	}

	private void checkTransport(Class<?> type, String eventType, String transport) {
		if (!this.transports.contains(transport)) {
			throw new OutboxCaptureException(describe(type, eventType) + " routes to transport '" + transport
					+ "', but no such transport is available (available: " + available() + "): "
					+ ((this.whyOthersAreNot != null) ? this.whyOthersAreNot + ", or route"
							: "add the transport's dependency or route")
					+ " the event to an available one");
		}
	}

	private String available() {
		return this.transports.isEmpty() ? "none" : String.join(", ", this.transports.stream().sorted().toList());
	}

	private static Expression parse(Class<?> type, String eventType, String attribute, String source,
			boolean isTemplate) {
		try {
			return isTemplate ? parser.parseExpression(source, template) : parser.parseExpression(source);
		}
		catch (ParseException ex) {
			throw new OutboxCaptureException(describe(type, eventType) + " has an invalid " + attribute
					+ " expression '" + source + "': " + ex.getMessage() + ": fix it in @OutboxEvent(" + attribute
					+ " = ...) or outbox.routes[" + type.getName() + "]." + attribute);
		}
	}

	/**
	 * The literal text and the {@code #{...}} expressions of a destination template, in order, so that
	 * each expression can be checked on its own: one that yields nothing would otherwise leave a
	 * destination that looks valid but is not the one meant ({@code orders/order.} for
	 * {@code orders/order.#{region}}).
	 */
	private static Expression[] parts(Expression template) {
		return (template instanceof CompositeStringExpression composite) ? composite.getExpressions()
				: new Expression[] { template };
	}

	private static @Nullable String defaultKey(@Nullable AggregateRef aggregate) {
		return (aggregate != null) ? aggregate.idAsString() : null;
	}

	public static String describe(Class<?> type, String eventType) {
		return "Event '" + eventType + "' (" + type.getName() + ")";
	}

	private record TypeRoutes(List<TypeRoute> routes, @Nullable String misconfiguration) {

		static final TypeRoutes NONE = new TypeRoutes(List.of(), null);

		List<ResolvedRoute> resolve(Object event, @Nullable AggregateRef aggregate) {
			if (this.misconfiguration != null) {
				throw new OutboxCaptureException(this.misconfiguration);
			}
			if (this.routes.size() == 1) {
				return List.of(this.routes.get(0).resolve(event, aggregate));
			}
			List<ResolvedRoute> resolved = new ArrayList<>(this.routes.size());
			for (TypeRoute route : this.routes) {
				resolved.add(route.resolve(event, aggregate));
			}
			return resolved;
		}

	}

	private record TypeRoute(Class<?> type, String eventType, String transport, String destination,
			Expression @Nullable [] destinationParts, @Nullable String keySource, @Nullable Expression key,
			Map<String, String> formatHeaders) {

		ResolvedRoute resolve(Object event, @Nullable AggregateRef aggregate) {
			return new ResolvedRoute(this.eventType, this.transport, destination(event), key(event, aggregate),
					this.formatHeaders);
		}

		private String destination(Object event) {
			if (this.destinationParts == null) {
				return this.destination;
			}
			StringBuilder destination = new StringBuilder();
			for (Expression part : this.destinationParts) {
				if (part instanceof LiteralExpression) {
					destination.append(part.getExpressionString());
					continue;
				}
				String value = evaluate(part, event, "destination", this.destination);
				if (!StringUtils.hasText(value)) {
					throw new OutboxCaptureException(describe(this.type, this.eventType) + ": its destination '"
							+ this.destination + "' cannot be resolved, #{" + part.getExpressionString()
							+ "} evaluated to " + ((value != null) ? "an empty value" : "null")
							+ ": make the expression yield a value for every event (e.g. #{"
							+ part.getExpressionString() + " ?: 'other'}), or route such events with an "
							+ "OutboxEventRouter bean");
				}
				destination.append(value);
			}
			return destination.toString();
		}

		/**
		 * The key the expression gives, or the aggregate's id without one. An expression that gives
		 * {@code null} is refused rather than publish the event without a key: it would silently lose
		 * its order relative to the other events of the key it was meant to have.
		 */
		private @Nullable String key(Object event, @Nullable AggregateRef aggregate) {
			if (this.key == null) {
				return defaultKey(aggregate);
			}
			String key = evaluate(this.key, event, "key", this.keySource);
			if (key == null) {
				throw new OutboxCaptureException(describe(this.type, this.eventType) + ": its key expression '"
						+ this.keySource + "' evaluated to null, and an event without a key is not ordered with "
						+ "the others of its key: make the expression yield a value for every event (e.g. '"
						+ this.keySource + " ?: \"none\"'), or remove it to key the event by its aggregate's id");
			}
			return key;
		}

		private @Nullable String evaluate(Expression expression, Object event, String attribute, String source) {
			try {
				Object value = expression.getValue(event);
				return (value != null) ? value.toString() : null;
			}
			catch (EvaluationException ex) {
				throw new OutboxCaptureException(describe(this.type, this.eventType) + ": its " + attribute
						+ " expression '" + source + "' failed: " + ex.getMessage() + ": fix the expression ("
						+ "@OutboxEvent(" + attribute + " = ...) or outbox.routes[" + this.type.getName() + "]."
						+ attribute + "); it is evaluated against the event, so it names the event's properties", ex);
			}
		}

	}
}
