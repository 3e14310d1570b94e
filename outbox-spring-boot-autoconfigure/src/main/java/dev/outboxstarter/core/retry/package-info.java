/**
 * Retry delays and the dead events an operator retries or discards.
 */
@NullMarked
package dev.outboxstarter.core.retry;

import org.jspecify.annotations.NullMarked;
