/**
 * What an application uses: {@link OutboxEvent @OutboxEvent}, the {@link Outbox} for events raised
 * outside an aggregate, routing ({@link OutboxEventRouter}, {@link OutboxRoute}), {@link DeadEvents},
 * local handlers ({@link OutboxHandler @OutboxHandler}), the inbox
 * ({@link IdempotentConsumer @IdempotentConsumer}, {@link Inbox}), the headers every message carries and the exceptions the
 * outbox raises. Extension points are in {@link dev.outboxstarter.spi}.
 */
@NullMarked
package dev.outboxstarter;

import org.jspecify.annotations.NullMarked;
