package dev.outboxstarter;

import org.jspecify.annotations.Nullable;

/**
 * The consumer side of the outbox: runs a message's handler at most once per consumer and message
 * id, so that at-least-once delivery has exactly-once effects. The handler runs in a transaction
 * together with the insert of the message id into the inbox table: a failure rolls both back (and the
 * broker redelivers), a message id the consumer already processed is skipped. The insert decides, so
 * two instances that receive the same message at once process it once.
 * <p>
 * Ids are compared byte for byte (case, trailing spaces and every character count), and an id is
 * unique within its source: two CloudEvents with the id {@code 1001} from two sources are two
 * messages. Any failure of the insert other than a duplicate is thrown, never taken as a duplicate.
 * <p>
 * On {@code @KafkaListener} and {@code @RabbitListener} methods, {@link IdempotentConsumer} does this
 * without code.
 *
 * @since 0.1.0
 */
public interface Inbox {

	/**
	 * Runs the handler unless the consumer already processed the message, for a message id unique
	 * everywhere (the {@code outbox-message-id} header): the same as
	 * {@link #process(String, String, String, InboxHandler) process(consumer, null, messageId, handler)}.
	 * @param consumer the consumer's name: ids are tracked per consumer
	 * @param messageId the message id (the {@code outbox-message-id} header)
	 * @param handler what processing the message does, in the same transaction as the insert
	 * @return {@code true} if the handler ran and committed, {@code false} if the message was a duplicate
	 * @throws MissingMessageIdException if the message id is {@code null} and
	 * {@code outbox.inbox.missing-message-id=refuse}, or if it is longer than the inbox stores
	 * @throws Exception what the handler threw, after the transaction was rolled back
	 */
	default boolean process(String consumer, @Nullable String messageId, InboxHandler handler) throws Exception {
		return process(consumer, null, messageId, handler);
	}

	/**
	 * Runs the handler unless the consumer already processed the message with this id from this source.
	 * @param consumer the consumer's name: ids are tracked per consumer
	 * @param source where the id is unique, such as a CloudEvent's {@code source}; {@code null} or empty
	 * for an id unique everywhere, such as the {@code outbox-message-id}
	 * @param messageId the message id, such as a CloudEvent's {@code id}
	 * @param handler what processing the message does, in the same transaction as the insert
	 * @return {@code true} if the handler ran and committed, {@code false} if the message was a duplicate
	 * @throws MissingMessageIdException if the message id is {@code null} and
	 * {@code outbox.inbox.missing-message-id=refuse}, or if the id or the source is longer than the inbox
	 * stores (255 bytes of UTF-8)
	 * @throws Exception what the handler threw, after the transaction was rolled back
	 */
	boolean process(String consumer, @Nullable String source, @Nullable String messageId, InboxHandler handler)
			throws Exception;

	/**
	 * What a consumer does with one message.
	 */
	@FunctionalInterface
	interface InboxHandler {

		/**
		 * Processes the message.
		 * @throws Exception to roll the processing back
		 */
		void handle() throws Exception;

	}

}
