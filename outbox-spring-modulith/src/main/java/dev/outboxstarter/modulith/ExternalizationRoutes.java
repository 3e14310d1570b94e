package dev.outboxstarter.modulith;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxRoute;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionException;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.modulith.events.RoutingTarget;

/**
 * Turns Modulith's routing target of an event into the outbox route of its row. The target and the
 * key may be {@code #{...}} templates, evaluated when the event is captured against the payload that
 * is sent (the mapped event), with {@code @bean} references, as Modulith's own broker integrations
 * evaluate them when they send. The route's transport is {@code outbox.default-transport}; for
 * RabbitMQ, Modulith's target is the exchange and its key the routing key, and the key also orders.
 */
final class ExternalizationRoutes {

	private static final String RABBIT = "rabbit";

	private static final SpelExpressionParser parser = new SpelExpressionParser();

	private static final TemplateParserContext template = new TemplateParserContext();

	private final String transport;

	private final EvaluationContext context;

	/** Each target and key template parsed once: they are evaluated for every event Modulith externalizes. */
	private final Map<String, Expression> expressions = new ConcurrentHashMap<>();

	/**
	 * Creates the routes.
	 * @param transport the transport every route uses
	 * @param beans resolves {@code @bean} references of expressions
	 */
	ExternalizationRoutes(String transport, BeanFactory beans) {
		this.transport = transport;
		StandardEvaluationContext context = new StandardEvaluationContext();
		context.setBeanResolver(new BeanFactoryResolver(beans));
		this.context = context;
	}

	/**
	 * The route of an event.
	 * @param event the event Modulith externalizes, which names the route's event type
	 * @param target Modulith's routing target for it
	 * @param payload what is sent, the root object of the target's expressions
	 * @return the route
	 * @throws OutboxCaptureException when an expression cannot be evaluated, the target evaluates to
	 * nothing or the key to null
	 */
	OutboxRoute routeOf(Object event, RoutingTarget target, Object payload) {
		String eventType = event.getClass().getSimpleName();
		String destination = evaluate(event, target.getTarget(), payload);
		if (destination == null || destination.isBlank()) {
			throw new OutboxCaptureException("Event " + event.getClass().getName() + " is externalized to '"
					+ target.getTarget() + "', which evaluates to no target: make the expression yield a topic");
		}
		String key = null;
		if (target.getKey() != null) {
			key = evaluate(event, target.getKey(), payload);
			if (key == null) {
				// As the outbox's own key expressions: an event that asks for a key and has none would
				// lose its order silently.
				throw new OutboxCaptureException("Event " + event.getClass().getName() + " is externalized with the key '"
						+ target.getKey() + "', which evaluates to null: give the event a key, or route it without one");
			}
		}
		if (RABBIT.equals(this.transport)) {
			destination = destination + "/" + ((key != null) ? key : "");
		}
		return new OutboxRoute(eventType, this.transport, destination, key);
	}

	private @Nullable String evaluate(Object event, String value, Object payload) {
		if (!value.contains(template.getExpressionPrefix())) {
			return value;
		}
		try {
			Expression expression = this.expressions.computeIfAbsent(value,
					(text) -> parser.parseExpression(text, template));
			Object result = expression.getValue(this.context, payload);
			return (result != null) ? result.toString() : null;
		}
		catch (ExpressionException ex) {
			throw new OutboxCaptureException("Event " + event.getClass().getName() + " is externalized with '" + value
					+ "', which cannot be evaluated against its payload " + payload.getClass().getName() + ": "
					+ ex.getMessage(), ex);
		}
	}

}
