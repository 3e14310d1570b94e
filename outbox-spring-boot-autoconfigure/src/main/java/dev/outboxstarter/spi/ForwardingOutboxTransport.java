package dev.outboxstarter.spi;

import java.util.concurrent.CompletableFuture;

/**
 * A transport that passes every call on to the one it wraps: the base of an
 * {@link OutboxTransportDecorator}'s wrapper, which overrides only what it changes (usually
 * {@link #send}). What it does not override keeps the wrapped transport's answers, so a wrapper cannot
 * lose, say, which failures mean the broker is unavailable, and with it the rule that an outage never
 * makes an event {@code DEAD}, or which ones no retry can fix.
 *
 * @since 0.1.0
 */
public abstract class ForwardingOutboxTransport implements OutboxTransport {

	private final OutboxTransport transport;

	/**
	 * Wraps a transport.
	 * @param transport the transport every call is passed on to
	 */
	protected ForwardingOutboxTransport(OutboxTransport transport) {
		this.transport = transport;
	}

	/**
	 * The wrapped transport.
	 * @return the transport every call is passed on to
	 */
	protected final OutboxTransport transport() {
		return this.transport;
	}

	@Override
	public String name() {
		return this.transport.name();
	}

	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		return this.transport.send(message);
	}

	@Override
	public boolean keepsKeyOrder() {
		return this.transport.keepsKeyOrder();
	}

	@Override
	public boolean sendsBinaryPayloads() {
		return this.transport.sendsBinaryPayloads();
	}

	@Override
	public boolean isUnavailable(Throwable failure) {
		return this.transport.isUnavailable(failure);
	}

	@Override
	public boolean isPermanent(Throwable failure) {
		return this.transport.isPermanent(failure);
	}

	@Override
	public void checkDestination(String destination) {
		this.transport.checkDestination(destination);
	}

}
