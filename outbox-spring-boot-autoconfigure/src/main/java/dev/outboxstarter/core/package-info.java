/**
 * The engine's auto-configuration and its {@code outbox.*} properties: where the packages of
 * {@code dev.outboxstarter.internal} are put together into a running outbox. Package-private but for
 * {@link OutboxAutoConfiguration} and {@link OutboxProperties}.
 */
@NullMarked
package dev.outboxstarter.core;

import org.jspecify.annotations.NullMarked;
