/**
 * The operations view over the engine: what the types of {@code dev.outboxstarter.operations}
 * read and do.
 */
@NullMarked
package dev.outboxstarter.internal.operations;

import org.jspecify.annotations.NullMarked;
