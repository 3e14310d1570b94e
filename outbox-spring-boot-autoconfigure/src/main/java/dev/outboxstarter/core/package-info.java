/**
 * The engine and its auto-configuration: capture in the business transaction, the outbox table's
 * statements per database, the fast path, the polling relay, retries and dead events, cleanup, the
 * backlog monitor, the schema and the inbox. Package-private but for {@link OutboxProperties} and
 * {@link OutboxOperations}, the view the actuator, the metrics and the test kit read.
 */
@NullMarked
package dev.outboxstarter.core;

import org.jspecify.annotations.NullMarked;
