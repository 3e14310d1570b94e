package dev.outboxstarter.core.publish;

/**
 * Wraps every transport the outbox publishes through, e.g. to observe each send. Declare an
 * implementation as a bean to add one; decorators apply in their order, the first outermost.
 */
@FunctionalInterface
public interface OutboxTransportDecorator {

	/**
	 * Wraps a transport.
	 * @param transport the transport
	 * @return the transport to publish through, keeping the wrapped one's name
	 */
	OutboxTransport decorate(OutboxTransport transport);

}
