/**
 * Periodic readings of the backlog, for the metrics and the health indicator.
 */
@NullMarked
package dev.outboxstarter.core.backlog;

import org.jspecify.annotations.NullMarked;
