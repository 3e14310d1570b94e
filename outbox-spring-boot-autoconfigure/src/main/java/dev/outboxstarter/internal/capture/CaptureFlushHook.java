package dev.outboxstarter.internal.capture;

/**
 * Runs before a transaction's outbox events are written, so that events raised while pending
 * changes are flushed (e.g. by a JPA flush of a changed aggregate) are written too.
 */
@FunctionalInterface
public interface CaptureFlushHook {

	/**
	 * Flushes pending changes of the current transaction.
	 */
	void flush();

}
