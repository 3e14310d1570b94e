/**
 * Deletion of published rows, and of dead ones after their retention, in bounded batches.
 */
@NullMarked
package dev.outboxstarter.core.cleanup;

import org.jspecify.annotations.NullMarked;
