package dev.outboxstarter.core.capture;

import java.util.List;
import java.util.UUID;

/**
 * Told the ids of outbox rows right after their transaction committed; the fast path. Must not
 * block or throw: the business transaction has committed and its caller is waiting.
 */
@FunctionalInterface
public interface CommittedEventsListener {

	/**
	 * @param ids the committed rows, in capture order
	 */
	void committed(List<UUID> ids);

}
