package dev.outboxstarter.it.twodatabases.billing;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * An invoice of the billing database.
 */
@Entity
@Table(name = "two_databases_invoice")
public class Invoice extends AbstractAggregateRoot<Invoice> {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String customer;

	protected Invoice() {
	}

	public Invoice(String customer) {
		this.customer = customer;
	}

	public Long getId() {
		return this.id;
	}

	public String getCustomer() {
		return this.customer;
	}

	/**
	 * Issues this invoice, the customer's {@code sequence}-th of the run.
	 * @param run the test run the invoice belongs to
	 * @param sequence its place among the customer's invoices
	 * @return this invoice
	 */
	public Invoice issue(String run, int sequence) {
		registerEvent(new InvoiceIssued(run, this.customer, sequence));
		return this;
	}

}
