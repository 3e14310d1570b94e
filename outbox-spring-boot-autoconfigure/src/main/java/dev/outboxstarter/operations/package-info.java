/**
 * The running outbox as operations see it: the backlog, the rows by status, outages and paused
 * destinations. The actuator endpoint, the health indicator, the metrics and the test kit read the
 * engine through these types alone.
 */
@NullMarked
package dev.outboxstarter.operations;

import org.jspecify.annotations.NullMarked;
