package dev.outboxstarter.modulith.invoicing;

import dev.outboxstarter.OutboxEvent;

import org.springframework.modulith.events.Externalized;

/**
 * An externalized event that is an outbox event of its own too, which outbox mode refuses.
 *
 * @param invoiceId the invoice
 */
@Externalized("invoices::#{#this.invoiceId()}")
@OutboxEvent(destination = "invoice-voids", key = "invoiceId")
public record InvoiceVoided(String invoiceId) {
}
