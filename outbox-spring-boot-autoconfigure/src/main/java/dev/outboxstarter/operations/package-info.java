/**
 * The running outbox as operations see it, in three roles: {@link OutboxMonitoring} reads what is
 * pending or DEAD and why (the backlog, the rows by status, outages and paused destinations, the relay
 * and the fast path), {@link OutboxAdministration} is what an operator may do, and
 * {@link OutboxTesting} what a test needs. The actuator endpoint, the health indicator, the metrics
 * and the test kit read the engine through these types alone, each through the roles it needs.
 */
@NullMarked
package dev.outboxstarter.operations;

import org.jspecify.annotations.NullMarked;
