package dev.outboxstarter.internal.capture;

import java.time.Instant;
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
		store(event, null, null);
	}

	@Override
	public void publish(String aggregateType, @Nullable Object aggregateId, Object event) {
		store(event, new AggregateRef(aggregateType, aggregateId), null);
	}

	@Override
	public void publish(OutboxRoute route, Object event, Map<String, String> headers) {
		this.capture.capture(route, event, headers);
	}

	@Override
	public void publish(Object event, Instant deliverAt) {
		store(event, null, requireTime(event, deliverAt));
	}

	@Override
	public void publish(String aggregateType, @Nullable Object aggregateId, Object event, Instant deliverAt) {
		store(event, new AggregateRef(aggregateType, aggregateId), requireTime(event, deliverAt));
	}

	private Instant requireTime(Object event, @Nullable Instant deliverAt) {
		if (deliverAt == null) {
			throw this.capture.refused(new OutboxCaptureException("Event " + event.getClass().getName()
					+ " was published with a null delivery time: pass the time it may be published at, or call "
					+ "Outbox.publish without one to publish it at once"));
		}
		return deliverAt;
	}

	private void store(Object event, @Nullable AggregateRef aggregate, @Nullable Instant deliverAt) {
		if (!this.capture.capture(event, aggregate, deliverAt)) {
			throw this.capture.refused(new OutboxCaptureException("Event " + event.getClass().getName()
					+ " has no outbox route: annotate it with @OutboxEvent, add outbox.routes["
					+ event.getClass().getName() + "].destination, or route it with an OutboxEventRouter bean"));
		}
	}

}
