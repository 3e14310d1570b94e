/**
 * Capture in the business transaction: events raised by aggregates and by {@code Outbox.publish}
 * are routed, serialized and buffered on the transaction, written before it commits, and handed to
 * the fast path once it has committed.
 */
@NullMarked
package dev.outboxstarter.internal.capture;

import org.jspecify.annotations.NullMarked;
