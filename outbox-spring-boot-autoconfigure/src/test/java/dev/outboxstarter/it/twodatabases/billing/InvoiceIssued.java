package dev.outboxstarter.it.twodatabases.billing;

import dev.outboxstarter.OutboxEvent;

/** Keyed by the customer, so that the invoices of one customer keep their order. */
@OutboxEvent(destination = "${test.invoices-topic}", key = "customer")
public record InvoiceIssued(String run, String customer, int sequence) {
}
