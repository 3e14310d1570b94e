/**
 * Capture of the pending events of every aggregate a Hibernate flush or merge meets.
 */
@NullMarked
package dev.outboxstarter.core.capture.jpa;

import org.jspecify.annotations.NullMarked;
