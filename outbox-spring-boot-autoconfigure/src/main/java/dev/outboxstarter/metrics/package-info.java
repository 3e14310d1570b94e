/**
 * Micrometer meters of the outbox.
 */
@NullMarked
package dev.outboxstarter.metrics;

import org.jspecify.annotations.NullMarked;
