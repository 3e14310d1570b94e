/**
 * Spring Boot auto-configuration of the outbox, its transports and its operations support, with the
 * {@code outbox.*} properties.
 */
@NullMarked
package dev.outboxstarter.autoconfigure;

import org.jspecify.annotations.NullMarked;
