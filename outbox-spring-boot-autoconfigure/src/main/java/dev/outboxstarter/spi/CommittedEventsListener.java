package dev.outboxstarter.spi;

import java.util.List;

/**
 * Told the outbox rows of a transaction right after it committed: the fast path, the metrics. Must
 * not block or throw: the business transaction has committed and its caller is waiting.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CommittedEventsListener {

	/**
	 * @param events the committed rows, in capture order
	 */
	void committed(List<CapturedEvent> events);

}
