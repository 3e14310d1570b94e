package dev.outboxstarter.core.store;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * The rows one claim locked, and which of them an earlier pending row of their key holds back when the
 * claim could tell.
 *
 * @param events the claimed rows, in seq order
 * @param heldBack the ids among them that must wait for an earlier row of their key, or {@code null}
 * when the claim did not check, and {@link OutboxStore#heldBack} must
 */
public record ClaimedBatch(List<ClaimedEvent> events, @Nullable Set<UUID> heldBack) {

	/**
	 * A claim that left the per-key check to {@link OutboxStore#heldBack}.
	 * @param events the claimed rows, in seq order
	 * @return the batch
	 */
	public static ClaimedBatch unchecked(List<ClaimedEvent> events) {
		return new ClaimedBatch(events, null);
	}

}
