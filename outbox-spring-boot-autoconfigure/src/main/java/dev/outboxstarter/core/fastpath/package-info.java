/**
 * The fast path: publishing committed events right after the commit.
 */
@NullMarked
package dev.outboxstarter.core.fastpath;

import org.jspecify.annotations.NullMarked;
