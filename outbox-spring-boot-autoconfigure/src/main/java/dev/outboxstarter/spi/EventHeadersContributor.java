package dev.outboxstarter.spi;

import java.util.Map;

/**
 * Adds headers to the outbox events captured on the current thread, such as the trace context of the
 * request that raised them. They are stored with the event and sent with its message. Declare an
 * implementation as a bean to add one.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface EventHeadersContributor {

	/**
	 * Adds headers for an event being captured, on the thread that raised it.
	 * @param headers the event's headers so far, to add to
	 */
	void contribute(Map<String, String> headers);

}
