/**
 * What the store, the schema and the inbox need to know of the database: its vendor, the versions
 * the statements run on, and the statement files kept per vendor.
 */
@NullMarked
package dev.outboxstarter.internal.jdbc;

import org.jspecify.annotations.NullMarked;
