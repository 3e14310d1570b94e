package dev.outboxstarter.internal.capture;

import java.util.Map;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxRoute;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Outbox} API: captures into the current transaction like aggregate events.
 */
public class TransactionalOutbox implements Outbox {

	private final OutboxCapture capture;

	public TransactionalOutbox(OutboxCapture capture) {
		this.capture = capture;
	}

	@Override
	public void publish(Object event) {
		store(event, null);
	}

	@Override
	public void publish(String aggregateType, @Nullable Object aggregateId, Object event) {
		store(event, new AggregateRef(aggregateType, aggregateId));
	}

	@Override
	public void publish(OutboxRoute route, Object event, Map<String, String> headers) {
		this.capture.capture(route, event, headers);
	}

	private void store(Object event, @Nullable AggregateRef aggregate) {
		if (!this.capture.capture(event, aggregate)) {
			throw this.capture.refused(new OutboxCaptureException("Event " + event.getClass().getName()
					+ " has no outbox route: annotate it with @OutboxEvent, add outbox.routes["
					+ event.getClass().getName() + "].destination, or route it with an OutboxEventRouter bean"));
		}
	}

}
