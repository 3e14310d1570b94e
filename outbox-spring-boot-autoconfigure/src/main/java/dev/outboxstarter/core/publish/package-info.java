/**
 * Delivery of claimed batches through transports, the transport SPI, and what is unavailable.
 */
@NullMarked
package dev.outboxstarter.core.publish;

import org.jspecify.annotations.NullMarked;
