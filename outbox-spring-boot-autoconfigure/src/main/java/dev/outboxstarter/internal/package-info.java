/**
 * The engine, one package per concern, in the order an event passes through them: capture, routing,
 * the store, delivery; beside them the schema, the inbox, housekeeping and the operations view's
 * implementation. Its types are public only so that these packages can use each other: none is API,
 * and any may change in any release.
 */
@NullMarked
package dev.outboxstarter.internal;

import org.jspecify.annotations.NullMarked;
