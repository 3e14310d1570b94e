package dev.outboxstarter.sample.simulation;

import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.OutboxTransportDecorator;

import org.springframework.stereotype.Component;

/**
 * A simulated broker outage, switched on and off from the sample page: while it lasts, every
 * transport refuses to send, as it would with the broker down, and says that it is unavailable.
 * Committed events pile up as pending rows, failed attempts are counted and retried with backoff but
 * never make an event DEAD, and once the outage ends the first acknowledgement makes the backlog due.
 * Nothing like this belongs in a real application; a decorator that does belong there builds on
 * {@link ForwardingOutboxTransport} too, which passes what it does not change on to the transport it
 * wraps.
 */
@Component
public class BrokerOutage implements OutboxTransportDecorator {

	private volatile boolean active;

	public boolean isActive() {
		return this.active;
	}

	public void begin() {
		this.active = true;
	}

	public void end() {
		this.active = false;
	}

	@Override
	public OutboxTransport decorate(OutboxTransport transport) {
		return new ForwardingOutboxTransport(transport) {

			@Override
			public CompletableFuture<?> send(OutboxMessage message) {
				if (BrokerOutage.this.active) {
					return CompletableFuture.failedFuture(new SimulatedOutageException());
				}
				return super.send(message);
			}

			@Override
			public boolean isUnavailable(Throwable failure) {
				return failure instanceof SimulatedOutageException || super.isUnavailable(failure);
			}

		};
	}

	private static final class SimulatedOutageException extends IllegalStateException {

		SimulatedOutageException() {
			super("Simulated broker outage: end it on the sample page or with DELETE /simulation/outage");
		}

	}

}
