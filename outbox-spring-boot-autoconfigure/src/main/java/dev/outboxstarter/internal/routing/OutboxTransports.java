package dev.outboxstarter.internal.routing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.annotation.OrderUtils;

/**
 * The transports the outbox publishes through, by name, each wrapped once in the decorators: what
 * routing checks names against, what delivery sends through and what the metrics report on.
 * <p>
 * A name belongs to one transport. Two transports may share it only when one takes precedence over
 * the other ({@link Ordered} or {@code @Order} on its class), as a test's stand-in for a broker does:
 * that one is used and the other is left out, which is logged.
 */
public final class OutboxTransports {

	private static final Log logger = LogFactory.getLog(OutboxTransports.class);

	private final Map<String, OutboxTransport> byName;

	/**
	 * Decorates the transports.
	 * @param transports the transports
	 * @param outermostFirst the decorators, the first to wrap the others
	 * @throws OutboxConfigurationException when two transports share a name and neither takes
	 * precedence, as only one of them could be sent through
	 */
	public OutboxTransports(List<OutboxTransport> transports, List<OutboxTransportDecorator> outermostFirst) {
		List<OutboxTransport> byPrecedence = new ArrayList<>(transports);
		AnnotationAwareOrderComparator.sort(byPrecedence);
		Map<String, OutboxTransport> chosen = new LinkedHashMap<>();
		for (OutboxTransport transport : byPrecedence) {
			OutboxTransport sameName = chosen.putIfAbsent(transport.name(), transport);
			if (sameName == null) {
				continue;
			}
			if (precedence(sameName) == precedence(transport)) {
				throw new OutboxConfigurationException("Two outbox transports are named '" + transport.name()
						+ "': " + sameName.getClass().getName() + " and " + transport.getClass().getName()
						+ "; events name the transport they go through, so each name must be unique",
						"Remove one of the beans, have one return another name from OutboxTransport.name(), or, "
								+ "for one that stands in for the other, give it precedence (Ordered or @Order)");
			}
			logger.info("Outbox transport '" + transport.name() + "' is " + sameName.getClass().getName()
					+ ", which takes precedence over " + transport.getClass().getName());
		}
		Map<String, OutboxTransport> byName = new LinkedHashMap<>();
		chosen.forEach((name, transport) -> {
			OutboxTransport decorated = transport;
			for (int i = outermostFirst.size() - 1; i >= 0; i--) {
				decorated = outermostFirst.get(i).decorate(decorated);
			}
			byName.put(name, decorated);
		});
		this.byName = Collections.unmodifiableMap(byName);
	}

	private static int precedence(OutboxTransport transport) {
		return (transport instanceof Ordered ordered) ? ordered.getOrder()
				: OrderUtils.getOrder(transport.getClass(), Ordered.LOWEST_PRECEDENCE);
	}

	/**
	 * The decorated transports by name, in order of precedence.
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
