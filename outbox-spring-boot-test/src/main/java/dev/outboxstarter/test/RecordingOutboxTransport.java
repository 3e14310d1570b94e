package dev.outboxstarter.test;

import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;

import org.springframework.core.Ordered;

/**
 * A transport that records the messages it is given in {@link PublishedOutboxEvents} and
 * acknowledges them at once, standing in for a broker the test does not want. It takes the place of
 * the application's transport of the same name, if there is one: the outbox uses the transport of
 * highest precedence for a name.
 *
 * @since 0.1.0
 * @see AutoConfigureOutbox#recordedTransports()
 */
public class RecordingOutboxTransport implements OutboxTransport, Ordered {

	private final String name;

	private final PublishedOutboxEvents published;

	/**
	 * Creates a transport that records the messages routed to a transport name.
	 * @param name the transport name, e.g. {@code kafka}
	 * @param published where the messages are recorded
	 */
	public RecordingOutboxTransport(String name, PublishedOutboxEvents published) {
		this.name = name;
		this.published = published;
	}

	@Override
	public String name() {
		return this.name;
	}

	/**
	 * Records binary payloads as the transport it stands in for would send them.
	 */
	@Override
	public boolean sendsBinaryPayloads() {
		return true;
	}

	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		this.published.record(this.name, message);
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public boolean keepsKeyOrder() {
		return true;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public String toString() {
		return "RecordingOutboxTransport '" + this.name + "'";
	}

}
