package dev.outboxstarter.internal.routing;

import java.util.Set;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The transports events may be routed to, and the one of routes that name none. A route to another
 * transport is refused, saying which ones there are and, when a transport is there but may not be
 * used, why.
 */
public final class RoutableTransports {

	/**
	 * The Kafka transport's name: the default transport, and the only one the log relay publishes to.
	 * The same as {@code KafkaOutboxTransport.NAME}, which the engine must not depend on.
	 */
	public static final String KAFKA = "kafka";

	private final Set<String> names;

	private final String defaultTransport;

	/** Why the transports left out may not be routed to, or {@code null} when they are simply missing. */
	private final @Nullable String whyOthersAreNot;

	/** Whether every event is published as it is written, so that none can wait for a time. */
	private final boolean publishedAsWritten;

	private RoutableTransports(Set<String> names, String defaultTransport, @Nullable String whyOthersAreNot,
			boolean publishedAsWritten) {
		this.names = Set.copyOf(names);
		this.defaultTransport = defaultTransport;
		this.whyOthersAreNot = whyOthersAreNot;
		this.publishedAsWritten = publishedAsWritten;
	}

	/**
	 * Every transport there is.
	 * @param names the names of the transports
	 * @param defaultTransport the transport of routes that name none
	 * @return the transports
	 */
	public static RoutableTransports all(Set<String> names, String defaultTransport) {
		return new RoutableTransports(names, defaultTransport, null, false);
	}

	/**
	 * Kafka only, for the log relay, which publishes to Kafka only: an event routed elsewhere would be
	 * deleted unpublished. The log relay publishes every event as it is written, so none may be delayed.
	 * @param names the names of the transports
	 * @param defaultTransport the transport of routes that name none
	 * @return the transports
	 */
	public static RoutableTransports forLogRelay(Set<String> names, String defaultTransport) {
		return new RoutableTransports(names.contains(KAFKA) ? Set.of(KAFKA) : Set.of(), defaultTransport,
				"outbox.relay.mode=log publishes to Kafka only (Debezium reads the rows from the database log); "
						+ "set outbox.relay.mode=polling to use other transports", true);
	}

	/**
	 * The transport a route names, or the default one when it names none.
	 */
	String orDefault(@Nullable String transport) {
		return StringUtils.hasText(transport) ? transport : this.defaultTransport;
	}

	boolean isDefault(String transport) {
		return transport.equals(this.defaultTransport);
	}

	/**
	 * Refuses an event routed to a transport that may not be routed to.
	 * @throws OutboxCaptureException if the transport may not be routed to
	 */
	void checkRouted(Class<?> type, String eventType, String transport) {
		if (!this.names.contains(transport)) {
			throw new OutboxCaptureException(EventRoutes.describe(type, eventType) + " routes to transport '" + transport
					+ "', but no such transport is available (available: " + available() + "): "
					+ ((this.whyOthersAreNot != null) ? this.whyOthersAreNot + ", or route"
							: "add the transport's dependency or route")
					+ " the event to an available one");
		}
	}

	/**
	 * Fails on a configured route to a transport that may not be routed to.
	 * @param property the route's property, {@code outbox.routes[<class>]}
	 * @throws OutboxConfigurationException if the transport may not be routed to
	 */
	void checkConfigured(String property, String transport) {
		if (!this.names.contains(transport)) {
			throw new OutboxConfigurationException(property + " routes to transport '" + transport
					+ "', but no such transport is available (available: " + available() + ")",
					((this.whyOthersAreNot != null) ? this.whyOthersAreNot + ", or set "
							: "Add the transport's dependency or set ")
							+ property + ".transport to an available one");
		}
	}

	/**
	 * Refuses a delayed event when every event is published as it is written.
	 * @param eventType the event's logical type
	 * @param destination where it goes
	 * @throws OutboxCaptureException if events cannot be delayed
	 */
	void checkDelayed(String eventType, String destination) {
		if (this.publishedAsWritten) {
			throw new OutboxCaptureException("Event '" + eventType + "' to " + destination + " is delayed, but "
					+ "outbox.relay.mode=log publishes every event as it is written: delayed delivery needs "
					+ "outbox.relay.mode=polling; or publish it without a delay");
		}
	}

	/**
	 * Fails on a configured route with a delay when every event is published as it is written.
	 * @param property the route's property, {@code outbox.routes[<class>]}
	 * @throws OutboxConfigurationException if events cannot be delayed
	 */
	void checkDelayConfigured(String property) {
		if (this.publishedAsWritten) {
			throw new OutboxConfigurationException(property + ".delay is set, but outbox.relay.mode=log publishes "
					+ "every event as it is written (Debezium reads it from the database log), so none can wait for "
					+ "its time", "Set outbox.relay.mode=polling for delayed delivery, or remove " + property
							+ ".delay to publish the events at once");
		}
	}

	private String available() {
		return this.names.isEmpty() ? "none" : String.join(", ", this.names.stream().sorted().toList());
	}

}
