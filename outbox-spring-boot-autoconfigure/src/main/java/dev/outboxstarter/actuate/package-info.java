/**
 * The outbox's health indicator and its {@code outbox} actuator endpoint.
 */
@NullMarked
package dev.outboxstarter.actuate;

import org.jspecify.annotations.NullMarked;
