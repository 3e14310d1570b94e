package dev.outboxstarter.internal.store;

import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The rows one claim locked, and which of them an earlier pending row of their key outside the claim
 * holds back.
 *
 * @param events the claimed rows, in seq order
 * @param heldBack the ids among them that must wait for an earlier row of their key; empty when none
 * does, and always without per-key ordering
 */
public record ClaimedBatch(List<ClaimedEvent> events, Set<UUID> heldBack) {

	/**
	 * The claimed rows to publish now: all but those held back, in seq order.
	 * @return the rows
	 */
	public List<ClaimedEvent> publishable() {
		return this.heldBack.isEmpty() ? this.events
				: this.events.stream().filter((event) -> !this.heldBack.contains(event.message().id())).toList();
	}

}
