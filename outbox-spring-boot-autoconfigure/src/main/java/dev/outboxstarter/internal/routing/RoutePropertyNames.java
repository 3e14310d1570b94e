package dev.outboxstarter.internal.routing;

import java.util.Set;

import dev.outboxstarter.OutboxConfigurationException;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Checks the names of the {@code outbox.routes} properties. A route's key is a class name, which has
 * dots, so it must be written in brackets; without them the binder splits it into nested names that
 * match no route, and the events meant for it would silently stay ordinary application events.
 */
public final class RoutePropertyNames {

	private static final ConfigurationPropertyName ROUTES = ConfigurationPropertyName.of("outbox.routes");

	private static final Set<String> ATTRIBUTES = Set.of("destination", "key", "event-type", "transport", "format", "delay",
			"delay-holds-key", "payload-format");

	private RoutePropertyNames() {
	}

	/**
	 * Fails when a property under {@code outbox.routes} is not {@code outbox.routes[<class>].<attribute>}.
	 * @param environment the application's environment
	 * @throws IllegalStateException naming the property and how to write it
	 */
	public static void check(Environment environment) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(ROUTES::isAncestorOf).stream().forEach(RoutePropertyNames::check);
			}
		}
	}

	private static void check(ConfigurationPropertyName name) {
		int depth = ROUTES.getNumberOfElements();
		boolean valid = name.getNumberOfElements() == depth + 2 && name.chop(depth + 1).isLastElementIndexed()
				&& isAttribute(name.getElement(depth + 1, Form.UNIFORM));
		if (!valid) {
			throw new OutboxConfigurationException(asWritten(name) + " is not a route setting",
					"Write outbox.routes[<fully qualified class name>].<attribute>, the class name in brackets (in "
							+ "YAML the key \"[com.acme.billing.InvoiceIssued]\", quoted), the attribute one of "
							+ String.join(", ", ATTRIBUTES.stream().sorted().toList())
							+ ", e.g. outbox.routes[com.acme.billing.InvoiceIssued].destination");
		}
	}

	/** Whether an element is an attribute in any of the forms relaxed binding accepts (event-type, eventType). */
	private static boolean isAttribute(String uniform) {
		return ATTRIBUTES.stream().anyMatch((attribute) -> attribute.replace("-", "").equals(uniform));
	}

	/** The name with its elements as written, which the canonical form would lower-case. */
	private static String asWritten(ConfigurationPropertyName name) {
		StringBuilder written = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, Form.ORIGINAL);
			if (name.chop(i + 1).isLastElementIndexed()) {
				written.append('[').append(element).append(']');
			}
			else {
				written.append((i > 0) ? "." : "").append(element);
			}
		}
		return written.toString();
	}

}
