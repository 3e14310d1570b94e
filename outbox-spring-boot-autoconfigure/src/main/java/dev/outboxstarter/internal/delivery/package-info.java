/**
 * Delivery: the fast path and the polling relay, which both publish claimed batches the same way;
 * in-flight sends; retries and the failure decision; outages and paused destinations.
 */
@NullMarked
package dev.outboxstarter.internal.delivery;

import org.jspecify.annotations.NullMarked;
