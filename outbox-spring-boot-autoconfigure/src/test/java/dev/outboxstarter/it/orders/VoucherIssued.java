package dev.outboxstarter.it.orders;

import dev.outboxstarter.OutboxEvent;

/** Handled in-process by {@link CapturedEvents}. */
@OutboxEvent(transport = "local", destination = CapturedEvents.DESTINATION)
public record VoucherIssued(String reference) {
}
