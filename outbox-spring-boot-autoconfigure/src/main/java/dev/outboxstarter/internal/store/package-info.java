/**
 * The outbox table: its statements per database, claims that lock rows and skip locked ones, and
 * what a delivery writes back.
 */
@NullMarked
package dev.outboxstarter.internal.store;

import org.jspecify.annotations.NullMarked;
