package dev.outboxstarter.internal.capture;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes to the application's listeners, as Spring Data would have, an event pulled from an
 * aggregate during a flush, once the flush is over: publishing inside a flush would run listeners in
 * the middle of it. The capture took the event when it was deferred, so the capture listener passes it
 * by.
 */
final class DeferredEventPublisher {

	/** The event being published on this thread, if any; set only while one is. */
	private static final ThreadLocal<@Nullable Object> publishing = new ThreadLocal<>();

	private final ApplicationEventPublisher publisher;

	DeferredEventPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	/**
	 * Whether an event is a deferred one being published, which the capture has taken already.
	 * @param event the event
	 * @return whether it is being published by this publisher
	 */
	static boolean isPublishing(Object event) {
		return publishing.get() == event;
	}

	void publish(Object event) {
		// A listener may publish the deferred events of a transaction of its own (REQUIRES_NEW).
		Object outer = publishing.get();
		publishing.set(event);
		try {
			this.publisher.publishEvent(event);
		}
		finally {
			if (outer != null) {
				publishing.set(outer);
			}
			else {
				publishing.remove();
			}
		}
	}

}
