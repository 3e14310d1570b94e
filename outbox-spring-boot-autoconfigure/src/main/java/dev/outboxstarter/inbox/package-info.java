/**
 * The consumer inbox: {@code @IdempotentConsumer} listeners that have their effect once per message id.
 */
@NullMarked
package dev.outboxstarter.inbox;

import org.jspecify.annotations.NullMarked;
