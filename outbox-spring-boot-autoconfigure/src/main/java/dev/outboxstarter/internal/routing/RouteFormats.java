package dev.outboxstarter.internal.routing;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.spi.CloudEventAttributes;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The message formats routes store their events in, and the headers that record a route's format with
 * each of its events: the relay that publishes an event may run on another instance, configured
 * otherwise, and must publish it as it was captured.
 */
public final class RouteFormats {

	private final MessageFormat defaultFormat;

	private final @Nullable String cloudEventSource;

	/**
	 * Creates the formats.
	 * @param defaultFormat message format of routes that name none
	 * @param cloudEventSource the CloudEvents {@code source} of events captured as CloudEvents, or
	 * {@code null} when none is configured
	 * @throws OutboxConfigurationException when CloudEvents are the default without a source
	 */
	public RouteFormats(MessageFormat defaultFormat, @Nullable String cloudEventSource) {
		if (defaultFormat == MessageFormat.CLOUDEVENTS && cloudEventSource == null) {
			throw new OutboxConfigurationException("outbox.message-format=cloudevents needs a CloudEvents source, "
					+ "the application that publishes the events", "Set outbox.cloudevents.source (e.g. /orders or "
							+ "https://acme.com/orders), or spring.application.name, which it defaults to");
		}
		this.defaultFormat = defaultFormat;
		this.cloudEventSource = cloudEventSource;
	}

	/**
	 * Creates the formats, their CloudEvents {@code source} the configured one or else the application's
	 * name as a URI-reference (a name with characters a URI cannot hold, such as spaces,
	 * percent-encoded).
	 * @param defaultFormat message format of routes that name none
	 * @param configuredSource {@code outbox.cloudevents.source}, or {@code null}
	 * @param applicationName {@code spring.application.name}, or {@code null}
	 * @return the formats
	 * @throws OutboxConfigurationException when CloudEvents are the default without a source
	 */
	public static RouteFormats of(MessageFormat defaultFormat, @Nullable String configuredSource,
			@Nullable String applicationName) {
		return new RouteFormats(defaultFormat,
				(configuredSource != null) ? configuredSource : asUriReference(applicationName));
	}

	private static @Nullable String asUriReference(@Nullable String name) {
		if (!StringUtils.hasText(name)) {
			return null;
		}
		try {
			return new URI(null, null, name, null).toASCIIString();
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	/**
	 * The headers of a route in a format, or in the default format when it names none.
	 * @throws OutboxCaptureException when the format is CloudEvents and there is no source
	 */
	Map<String, String> headers(Class<?> type, String eventType, @Nullable MessageFormat format) {
		MessageFormat effective = (format != null) ? format : this.defaultFormat;
		if (effective == MessageFormat.OUTBOX) {
			return Map.of();
		}
		if (this.cloudEventSource == null) {
			throw new OutboxCaptureException(EventRoutes.describe(type, eventType) + " is published as a CloudEvent, "
					+ "which needs a source, the application that publishes it: set outbox.cloudevents.source (e.g. "
					+ "/orders), or spring.application.name, which it defaults to");
		}
		return CloudEventAttributes.storedHeaders(this.cloudEventSource);
	}

	/**
	 * The format an annotation or a configured route names, {@code null} for the default.
	 * @throws OutboxCaptureException when no format has that name
	 */
	@Nullable MessageFormat named(Class<?> type, String eventType, @Nullable String name) {
		if (!StringUtils.hasText(name)) {
			return null;
		}
		MessageFormat format = MessageFormat.named(name);
		if (format == null) {
			throw new OutboxCaptureException(EventRoutes.describe(type, eventType) + " asks for the message format '"
					+ name + "', which does not exist: use 'outbox' or 'cloudevents' in @OutboxEvent(format = ...) or "
					+ "outbox.routes[" + type.getName() + "].format");
		}
		return format;
	}

	/**
	 * Fails on a configured route whose format does not exist or cannot be used.
	 * @param property the route's property, {@code outbox.routes[<class>]}
	 * @param name the format the route names
	 * @throws OutboxConfigurationException when the format does not exist, or is CloudEvents without a
	 * source
	 */
	void checkConfigured(String property, String name) {
		MessageFormat format = MessageFormat.named(name);
		if (format == null) {
			throw new OutboxConfigurationException(property + ".format '" + name + "' is not a message format",
					"Use 'outbox' or 'cloudevents'");
		}
		if (format == MessageFormat.CLOUDEVENTS && this.cloudEventSource == null) {
			throw new OutboxConfigurationException(property + ".format=cloudevents needs a CloudEvents source, the "
					+ "application that publishes the events", "Set outbox.cloudevents.source (e.g. /orders), or "
							+ "spring.application.name, which it defaults to");
		}
	}

}
