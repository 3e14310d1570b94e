package dev.outboxstarter.spi;

/**
 * Wraps every transport the outbox publishes through, e.g. to observe each send. Declare an
 * implementation as a bean to add one; decorators apply in their order, the first outermost. Build
 * the wrapper on {@link ForwardingOutboxTransport}: one that answered
 * {@link OutboxTransport#keepsKeyOrder}, {@link OutboxTransport#isUnavailable} and
 * {@link OutboxTransport#isPermanent} with their defaults instead of the wrapped transport's would
 * make the outbox send a key's messages one at a time, count a broker outage against each event's
 * attempts and retry messages the broker can never take.
 *
 * @since 0.1.0
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
