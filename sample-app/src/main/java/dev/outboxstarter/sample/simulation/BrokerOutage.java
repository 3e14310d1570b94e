package dev.outboxstarter.sample.simulation;

import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.core.publish.OutboxMessage;
import dev.outboxstarter.core.publish.OutboxTransport;
import dev.outboxstarter.core.publish.OutboxTransportDecorator;

import org.springframework.stereotype.Component;

/**
 * A simulated broker outage, switched on and off from the sample page: while it lasts, every
 * transport refuses to send, as it would with the broker down. Committed events pile up as pending
 * rows, failed attempts are counted and retried with backoff, and once the outage ends the relay
 * drains the backlog. Nothing like this belongs in a real application.
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
		return new OutboxTransport() {

			@Override
			public String name() {
				return transport.name();
			}

			@Override
			public boolean keepsKeyOrder() {
				return transport.keepsKeyOrder();
			}

			@Override
			public CompletableFuture<?> send(OutboxMessage message) {
				if (BrokerOutage.this.active) {
					return CompletableFuture.failedFuture(new IllegalStateException(
							"Simulated broker outage: end it on the sample page or with DELETE /simulation/outage"));
				}
				return transport.send(message);
			}

		};
	}

}
