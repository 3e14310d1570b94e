package dev.outboxstarter.testsupport;

import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;

/**
 * A transport of a given name that acknowledges every message at once, for tests of what wraps,
 * chooses or observes transports rather than of what a broker does.
 */
public class AcknowledgingTransport implements OutboxTransport {

	private final String name;

	public AcknowledgingTransport(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public String toString() {
		return this.name;
	}

}
