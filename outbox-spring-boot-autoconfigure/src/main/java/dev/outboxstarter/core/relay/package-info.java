/**
 * The relay that polls for due events on every instance.
 */
@NullMarked
package dev.outboxstarter.core.relay;

import org.jspecify.annotations.NullMarked;
