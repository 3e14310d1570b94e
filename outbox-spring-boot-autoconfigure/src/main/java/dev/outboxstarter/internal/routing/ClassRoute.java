package dev.outboxstarter.internal.routing;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import dev.outboxstarter.OutboxCaptureException;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.CompositeStringExpression;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.StringUtils;

/**
 * A route of an event class, compiled once from its definition: its destination, a template whose
 * {@code #{...}} expressions are evaluated against each event, and its key expression, also evaluated
 * against each event, or none to key each event by its aggregate's id.
 */
final class ClassRoute {

	static final SpelExpressionParser parser = new SpelExpressionParser(
			new SpelParserConfiguration(SpelCompilerMode.MIXED, ClassRoute.class.getClassLoader()));

	private static final TemplateParserContext template = new TemplateParserContext();

	private final Class<?> type;

	private final String eventType;

	private final String transport;

	private final String destination;

	/** The literal text and the expressions of a destination template, or {@code null} for a plain one. */
	private final Expression @Nullable [] destinationParts;

	private final @Nullable String keySource;

	private final @Nullable Expression key;

	private final Map<String, String> formatHeaders;

	private final @Nullable Duration delay;

	private final boolean delayHoldsKey;

	private final @Nullable String payloadFormat;

	private ClassRoute(Class<?> type, String eventType, String transport, String destination,
			Expression @Nullable [] destinationParts, @Nullable String keySource, @Nullable Expression key,
			Map<String, String> formatHeaders, @Nullable Duration delay, boolean delayHoldsKey,
			@Nullable String payloadFormat) {
		this.type = type;
		this.eventType = eventType;
		this.transport = transport;
		this.destination = destination;
		this.destinationParts = destinationParts;
		this.keySource = keySource;
		this.key = key;
		this.formatHeaders = formatHeaders;
		this.delay = delay;
		this.delayHoldsKey = delayHoldsKey;
		this.payloadFormat = payloadFormat;
	}

	/**
	 * Compiles a route definition of a class.
	 * @param type the event's class
	 * @param eventType the logical type of its events
	 * @param definition the definition, with its transport
	 * @param transports the transports that may be routed to
	 * @param formats the message formats
	 * @return the route
	 * @throws OutboxCaptureException when the definition has no destination, routes to a transport that
	 * may not be routed to, has an expression that does not parse, or names a format that cannot be used
	 */
	static ClassRoute compile(Class<?> type, String eventType, RouteDefinition definition,
			RoutableTransports transports, RouteFormats formats) {
		String transport = Objects.requireNonNull(definition.transport());
		String destination = definition.destination();
		if (!StringUtils.hasText(destination)) {
			throw new OutboxCaptureException(EventRoutes.describe(type, eventType)
					+ " is an outbox event but has no destination"
					+ (transports.isDefault(transport) ? "" : " for transport '" + transport + "'")
					+ ": set @OutboxEvent(destination = \"...\") on it or the property outbox.routes[" + type.getName()
					+ "].destination");
		}
		transports.checkRouted(type, eventType, transport);
		Expression[] destinationParts = destination.contains(template.getExpressionPrefix())
				? parts(parse(type, eventType, "destination", destination, true)) : null;
		String key = definition.key();
		Expression keyExpression = StringUtils.hasText(key) ? parse(type, eventType, "key", key, false) : null;
		return new ClassRoute(type, eventType, transport, destination, destinationParts, key, keyExpression,
				formats.headers(type, eventType, formats.named(type, eventType, definition.format())),
				(definition.delay() != null && !definition.delay().isZero()) ? definition.delay() : null,
				Boolean.TRUE.equals(definition.delayHoldsKey()), definition.payloadFormat());
	}

	/**
	 * Where one event of the class goes.
	 * @param event the event
	 * @return its route, with no key when it is keyed by its aggregate's id
	 * @throws OutboxCaptureException when an expression fails or yields nothing for the event
	 */
	ResolvedRoute resolve(Object event) {
		return new ResolvedRoute(this.eventType, this.transport, destination(event), key(event), this.formatHeaders,
				this.delay, this.delayHoldsKey, this.payloadFormat);
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
				throw new OutboxCaptureException(describeEvent() + ": its destination '" + this.destination
						+ "' cannot be resolved, #{" + part.getExpressionString() + "} evaluated to "
						+ ((value != null) ? "an empty value" : "null")
						+ ": make the expression yield a value for every event (e.g. #{" + part.getExpressionString()
						+ " ?: 'other'}), or route such events with an OutboxEventRouter bean");
			}
			destination.append(value);
		}
		return destination.toString();
	}

	/**
	 * The key the expression gives, or none without one. An expression that gives {@code null} is
	 * refused rather than publish the event without a key: it would silently lose its order relative
	 * to the other events of the key it was meant to have.
	 */
	private @Nullable String key(Object event) {
		if (this.key == null) {
			return null;
		}
		String key = evaluate(this.key, event, "key", this.keySource);
		if (key == null) {
			throw new OutboxCaptureException(describeEvent() + ": its key expression '" + this.keySource
					+ "' evaluated to null, and an event without a key is not ordered with the others of its key: "
					+ "make the expression yield a value for every event (e.g. '" + this.keySource
					+ " ?: \"none\"'), or remove it to key the event by its aggregate's id");
		}
		return key;
	}

	private @Nullable String evaluate(Expression expression, Object event, String attribute, String source) {
		try {
			Object value = expression.getValue(event);
			return (value != null) ? value.toString() : null;
		}
		catch (EvaluationException ex) {
			throw new OutboxCaptureException(describeEvent() + ": its " + attribute + " expression '" + source
					+ "' failed: " + ex.getMessage() + ": fix the expression (@OutboxEvent(" + attribute
					+ " = ...) or outbox.routes[" + this.type.getName() + "]." + attribute + "); it is evaluated "
					+ "against the event, so it names the event's properties", ex);
		}
	}

	private static Expression parse(Class<?> type, String eventType, String attribute, String source,
			boolean isTemplate) {
		try {
			return isTemplate ? parser.parseExpression(source, template) : parser.parseExpression(source);
		}
		catch (ParseException ex) {
			throw new OutboxCaptureException(EventRoutes.describe(type, eventType) + " has an invalid " + attribute
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

	private String describeEvent() {
		return EventRoutes.describe(this.type, this.eventType);
	}

}
