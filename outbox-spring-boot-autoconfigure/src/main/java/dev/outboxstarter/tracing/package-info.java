/**
 * The {@code outbox.publish} observation and the trace context stored with each event.
 */
@NullMarked
package dev.outboxstarter.tracing;

import org.jspecify.annotations.NullMarked;
