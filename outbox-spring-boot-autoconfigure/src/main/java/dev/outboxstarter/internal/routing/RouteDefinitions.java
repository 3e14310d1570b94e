package dev.outboxstarter.internal.routing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.StringUtils;

/**
 * Reads the route definitions of an event class: its {@link OutboxEvent} annotations (those of the
 * nearest annotated class in its hierarchy), each with the configured route of the same transport
 * merged over it; a configured route with no annotation of its transport is a route of its own.
 */
final class RouteDefinitions {

	private final ConfiguredRoutes configured;

	private final RoutableTransports transports;

	private final PropertyResolver placeholders;

	/**
	 * Creates the reader.
	 * @param configured the routes of the {@code outbox.routes} properties
	 * @param transports names the transport of definitions that name none
	 * @param placeholders resolves {@code ${...}} in annotation values
	 */
	RouteDefinitions(ConfiguredRoutes configured, RoutableTransports transports, PropertyResolver placeholders) {
		this.configured = configured;
		this.transports = transports;
		this.placeholders = placeholders;
	}

	/**
	 * The definitions of a class, each with its transport.
	 * @param type the event's class
	 * @return its definitions, empty when it is not an outbox event
	 * @throws IllegalArgumentException when an annotation has a {@code ${...}} placeholder that no property
	 * resolves
	 * @throws OutboxCaptureException when an annotation's delay is not a duration or is negative
	 */
	List<RouteDefinition> of(Class<?> type) {
		List<MergedAnnotation<OutboxEvent>> annotations = MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY)
			.stream(OutboxEvent.class)
			.toList();
		int nearest = annotations.stream().mapToInt(MergedAnnotation::getAggregateIndex).min().orElse(0);
		List<RouteDefinition> definitions = new ArrayList<>();
		for (MergedAnnotation<OutboxEvent> annotation : annotations) {
			if (annotation.getAggregateIndex() == nearest) {
				definitions.add(new RouteDefinition(text(annotation, "type"),
						this.transports.orDefault(text(annotation, "transport")), text(annotation, "destination"),
						annotation.getString("key"), text(annotation, "format"), delay(type, annotation),
						annotation.getBoolean("delayHoldsKey"), text(annotation, "payloadFormat")));
			}
		}
		RouteDefinition configured = this.configured.of(type);
		if (configured != null) {
			String transport = this.transports.orDefault(configured.transport());
			int index = indexOfTransport(definitions, transport);
			RouteDefinition base = (index >= 0) ? definitions.get(index)
					: new RouteDefinition(definitions.isEmpty() ? null : definitions.get(0).eventType(), transport, null,
							null, null);
			RouteDefinition merged = new RouteDefinition(pick(configured.eventType(), base.eventType()), transport,
					pick(configured.destination(), base.destination()), pick(configured.key(), base.key()),
					pick(configured.format(), base.format()),
					(configured.delay() != null) ? configured.delay() : base.delay(),
					(configured.delayHoldsKey() != null) ? configured.delayHoldsKey() : base.delayHoldsKey(),
					pick(configured.payloadFormat(), base.payloadFormat()));
			if (index >= 0) {
				definitions.set(index, merged);
			}
			else {
				definitions.add(merged);
			}
		}
		return definitions;
	}

	private @Nullable String text(MergedAnnotation<OutboxEvent> annotation, String attribute) {
		String value = annotation.getString(attribute);
		return StringUtils.hasText(value) ? this.placeholders.resolveRequiredPlaceholders(value) : null;
	}

	/**
	 * The annotation's delay, {@code null} for none.
	 * @throws OutboxCaptureException when it is not a duration or is negative
	 */
	private @Nullable Duration delay(Class<?> type, MergedAnnotation<OutboxEvent> annotation) {
		String delay = text(annotation, "delay");
		if (delay == null) {
			return null;
		}
		String event = EventRoutes.describe(type, StringUtils.hasText(annotation.getString("type"))
				? annotation.getString("type") : type.getSimpleName());
		Duration parsed;
		try {
			parsed = DurationStyle.detectAndParse(delay.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new OutboxCaptureException(event + " has @OutboxEvent(delay = \"" + delay
					+ "\"), which is not a duration: write it in ISO-8601 (PT15M) or as a number and a unit (15m, 30s)");
		}
		if (parsed.isNegative()) {
			throw new OutboxCaptureException(event + " has @OutboxEvent(delay = \"" + delay
					+ "\"), a negative delay: an event cannot be published before it is written; give a positive "
					+ "duration, or none to publish it at once");
		}
		return parsed;
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

}
