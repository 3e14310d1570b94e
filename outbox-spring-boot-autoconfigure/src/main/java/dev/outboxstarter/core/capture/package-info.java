/**
 * Capture of events into the outbox table in the business transaction, and their routing.
 */
@NullMarked
package dev.outboxstarter.core.capture;

import org.jspecify.annotations.NullMarked;
