/**
 * Spring Modulith's outbox mode ({@code spring.modulith.events.externalization.mode=outbox}) through
 * this starter: the events Modulith's {@code EventExternalizationConfiguration} selects are written to
 * the outbox in the transaction that publishes them.
 */
@NullMarked
package dev.outboxstarter.modulith;

import org.jspecify.annotations.NullMarked;
