/**
 * Housekeeping: deleting published and dead rows after their retention, and reading the backlog
 * for the metrics and the health indicator.
 */
@NullMarked
package dev.outboxstarter.internal.housekeeping;

import org.jspecify.annotations.NullMarked;
