/**
 * The outbox table: its statements per database; the {@link dev.outboxstarter.internal.store.OutboxStore}
 * that capture inserts through and delivery claims rows from (locking them, skipping locked ones) and
 * writes back to; and the {@link dev.outboxstarter.internal.store.StoredEvents} that operations and
 * housekeeping read, retry, discard and delete.
 */
@NullMarked
package dev.outboxstarter.internal.store;

import org.jspecify.annotations.NullMarked;
