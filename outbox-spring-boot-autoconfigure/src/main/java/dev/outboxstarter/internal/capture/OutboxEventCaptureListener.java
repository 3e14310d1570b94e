package dev.outboxstarter.internal.capture;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;

/**
 * Captures outbox events published through the {@code ApplicationEventPublisher}, which is how
 * Spring Data publishes an aggregate's {@code @DomainEvents} on {@code save()} and {@code delete()}.
 * Other events pass through untouched, and so do the events a flush deferred, published once the
 * flush is over: the capture took them when they were deferred.
 */
public class OutboxEventCaptureListener implements ApplicationListener<ApplicationEvent> {

	private final OutboxCapture capture;

	public OutboxEventCaptureListener(OutboxCapture capture) {
		this.capture = capture;
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		Object payload = (event instanceof PayloadApplicationEvent<?> wrapped) ? wrapped.getPayload() : event;
		if (!DeferredEventPublisher.isPublishing(payload)) {
			this.capture.capture(payload, AggregateContext.aggregateOf(payload));
		}
	}

	@Override
	public boolean supportsAsyncExecution() {
		// The capture must run in the publisher's transaction.
		return false;
	}

}
