/**
 * Where each event goes: its transport, destination, key and type, from {@code @OutboxEvent}, the
 * {@code outbox.routes} properties or an {@code OutboxEventRouter}, checked against the transports
 * that exist.
 */
@NullMarked
package dev.outboxstarter.internal.routing;

import org.jspecify.annotations.NullMarked;
