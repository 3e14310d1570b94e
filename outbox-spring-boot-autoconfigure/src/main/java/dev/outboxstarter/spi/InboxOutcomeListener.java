package dev.outboxstarter.spi;

import org.jspecify.annotations.Nullable;

/**
 * Told what the inbox did with each message, after its transaction ended. Must be fast and must not
 * throw.
 *
 * @since 0.1.0
 */
public interface InboxOutcomeListener {

	/**
	 * A message was processed and committed.
	 * @param consumer the consumer
	 * @param messageId its id, or {@code null} for a message without one processed anyway
	 */
	default void processed(String consumer, @Nullable String messageId) {
	}

	/**
	 * A message the consumer had already processed was skipped.
	 * @param consumer the consumer
	 * @param messageId its id
	 */
	default void duplicate(String consumer, String messageId) {
	}

}
