package dev.outboxstarter.tracing;

import java.util.Map;

import dev.outboxstarter.spi.OutboxMessage;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The observation context of publishing one outbox message. Its carrier is the headers stored with
 * the event, so a tracing handler continues the trace that was current when the event was captured
 * (a producer span, child of the request that raised the event), however much later it is sent.
 *
 * @since 0.1.0
 */
public class OutboxPublishContext extends ReceiverContext<Map<String, String>> {

	private final OutboxMessage message;

	private final String transport;

	/**
	 * Creates the context.
	 * @param message the message being published
	 * @param transport the transport name
	 */
	public OutboxPublishContext(OutboxMessage message, String transport) {
		super((carrier, key) -> carrier.get(key), Kind.PRODUCER);
		setCarrier(message.headers());
		setRemoteServiceName(transport);
		this.message = message;
		this.transport = transport;
	}

	/**
	 * The message being published.
	 * @return the message
	 */
	public OutboxMessage getMessage() {
		return this.message;
	}

	/**
	 * The transport publishing it.
	 * @return the transport name
	 */
	public String getTransport() {
		return this.transport;
	}

}
