/**
 * The outbox and inbox tables' schema: created and migrated by Flyway or by the scripts shipped per
 * database, under a lock, or checked to exist.
 */
@NullMarked
package dev.outboxstarter.internal.schema;

import org.jspecify.annotations.NullMarked;
