package dev.outboxstarter.modulith.invoicing;

import org.springframework.modulith.events.Externalized;

/**
 * An externalized event of an application that leaves routing to Modulith's default configuration.
 *
 * @param invoiceId the invoice, the message key
 * @param amount its amount
 */
@Externalized("invoices::#{#this.invoiceId()}")
public record InvoiceIssued(String invoiceId, int amount) {
}
