package dev.outboxstarter.modulith.invoicing;

/**
 * An event of the same application that is not externalized.
 *
 * @param invoiceId the invoice
 */
public record InvoiceDrafted(String invoiceId) {
}
