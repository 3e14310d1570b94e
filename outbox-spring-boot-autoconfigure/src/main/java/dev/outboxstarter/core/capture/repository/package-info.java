/**
 * Which aggregate each event of a Spring Data repository call came from.
 */
@NullMarked
package dev.outboxstarter.core.capture.repository;

import org.jspecify.annotations.NullMarked;
