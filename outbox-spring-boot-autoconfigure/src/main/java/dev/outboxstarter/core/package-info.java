/**
 * What an application uses: {@code @OutboxEvent}, {@link Outbox}, routes, dead events, headers and the
 * exceptions the outbox raises.
 */
@NullMarked
package dev.outboxstarter.core;

import org.jspecify.annotations.NullMarked;
