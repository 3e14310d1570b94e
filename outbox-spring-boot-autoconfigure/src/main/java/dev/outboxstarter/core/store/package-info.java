/**
 * The outbox and inbox tables: statements per database and the rows they read and write.
 */
@NullMarked
package dev.outboxstarter.core.store;

import org.jspecify.annotations.NullMarked;
