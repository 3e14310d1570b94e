/**
 * The in-process transport: {@code @OutboxHandler} methods run after the commit.
 */
@NullMarked
package dev.outboxstarter.local;

import org.jspecify.annotations.NullMarked;
