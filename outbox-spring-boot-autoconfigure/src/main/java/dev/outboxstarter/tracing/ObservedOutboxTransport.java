package dev.outboxstarter.tracing;

import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Publishes each message inside an {@code outbox.publish} observation that continues the trace stored
 * with the event, and sends the message with that observation's trace context, so consumers continue
 * the same trace. The observation ends with the acknowledgement.
 */
class ObservedOutboxTransport extends ForwardingOutboxTransport {

	private static final OutboxPublishObservationConvention DEFAULT_CONVENTION =
			new DefaultOutboxPublishObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable OutboxPublishObservationConvention convention;

	private final @Nullable TraceContextHeaders traceHeaders;

	/**
	 * Wraps a transport.
	 * @param transport the transport
	 * @param registry the observation registry
	 * @param convention the application's convention for the observation, or {@code null} for the
	 * default one
	 * @param traceHeaders puts the publishing span's context into the sent headers, or {@code null}
	 * without tracing
	 */
	public ObservedOutboxTransport(OutboxTransport transport, ObservationRegistry registry,
			@Nullable OutboxPublishObservationConvention convention, @Nullable TraceContextHeaders traceHeaders) {
		super(transport);
		this.registry = registry;
		this.convention = convention;
		this.traceHeaders = traceHeaders;
	}

	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		Observation observation = Observation
			.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> new OutboxPublishContext(message, name()),
					this.registry)
			.start();
		CompletableFuture<?> acknowledgement;
		try (Observation.Scope scope = observation.openScope()) {
			acknowledgement = transport().send(outgoing(message));
		}
		catch (RuntimeException ex) {
			observation.error(ex);
			observation.stop();
			throw ex;
		}
		return acknowledgement.whenComplete((result, failure) -> {
			if (failure != null) {
				observation.error(failure);
			}
			observation.stop();
		});
	}

	private OutboxMessage outgoing(OutboxMessage message) {
		if (this.traceHeaders == null) {
			return message;
		}
		return message.withHeaders(this.traceHeaders.continued(message.headers()));
	}

	@Override
	public String toString() {
		return "observed " + transport();
	}

}
