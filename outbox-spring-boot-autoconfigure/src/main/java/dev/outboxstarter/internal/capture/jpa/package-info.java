/**
 * Capture's JPA and Spring Data part: which aggregates a transaction saved, and their domain events
 * read when Hibernate flushes them.
 */
@NullMarked
package dev.outboxstarter.internal.capture.jpa;

import org.jspecify.annotations.NullMarked;
