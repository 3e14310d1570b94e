package dev.outboxstarter.modulith.invoicing;

import org.springframework.modulith.events.Externalized;

/**
 * An externalized event that the outbox may route by its own rules too: by an
 * {@code outbox.routes} entry or an {@code OutboxEventRouter} bean.
 *
 * @param invoiceId the invoice
 */
@Externalized("invoices::#{#this.invoiceId()}")
public record InvoiceSettled(String invoiceId) {
}
