/**
 * Creation and upgrade of the outbox and inbox tables, with Flyway or the shipped scripts.
 */
@NullMarked
package dev.outboxstarter.core.schema;

import org.jspecify.annotations.NullMarked;
