/**
 * The inbox: a consumer's effects once per message id, and the interception of
 * {@code @IdempotentConsumer} listeners.
 */
@NullMarked
package dev.outboxstarter.internal.inbox;

import org.jspecify.annotations.NullMarked;
