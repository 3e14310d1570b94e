package dev.outboxstarter.core.publish;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.core.OutboxConfigurationException;

/**
 * The transports the outbox publishes through, by name, each wrapped once in the decorators: what
 * routing checks names against, what delivery sends through and what the metrics report on.
 */
public final class OutboxTransports {

	private final Map<String, OutboxTransport> byName;

	/**
	 * Decorates the transports.
	 * @param transports the transports, none sharing its name with another
	 * @param outermostFirst the decorators, the first to wrap the others
	 * @throws OutboxConfigurationException when two transports share a name, as only one of them could
	 * be sent through
	 */
	public OutboxTransports(List<OutboxTransport> transports, List<OutboxTransportDecorator> outermostFirst) {
		Map<String, OutboxTransport> byName = new LinkedHashMap<>();
		Map<String, OutboxTransport> undecorated = new LinkedHashMap<>();
		for (OutboxTransport transport : transports) {
			OutboxTransport sameName = undecorated.putIfAbsent(transport.name(), transport);
			if (sameName != null) {
				throw new OutboxConfigurationException("Two outbox transports are named '" + transport.name()
						+ "': " + sameName.getClass().getName() + " and " + transport.getClass().getName()
						+ "; events name the transport they go through, so each name must be unique",
						"Remove one of the beans or have one return another name from OutboxTransport.name()");
			}
			OutboxTransport decorated = transport;
			for (int i = outermostFirst.size() - 1; i >= 0; i--) {
				decorated = outermostFirst.get(i).decorate(decorated);
			}
			byName.put(transport.name(), decorated);
		}
		this.byName = Collections.unmodifiableMap(byName);
	}

	/**
	 * The decorated transports by name, in the order they were given.
	 * @return the transports
	 */
	public Map<String, OutboxTransport> byName() {
		return this.byName;
	}

	/**
	 * The transports' names.
	 * @return the names
	 */
	public Set<String> names() {
		return this.byName.keySet();
	}

}
