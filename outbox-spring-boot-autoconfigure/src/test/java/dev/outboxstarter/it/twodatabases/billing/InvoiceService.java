package dev.outboxstarter.it.twodatabases.billing;

import dev.outboxstarter.it.twodatabases.BusinessRuleViolated;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Issues invoices in transactions of the billing database's transaction manager.
 */
@Service
public class InvoiceService {

	private final InvoiceRepository invoices;

	public InvoiceService(InvoiceRepository invoices) {
		this.invoices = invoices;
	}

	@Transactional("billingTransactionManager")
	public Invoice issue(String run, String customer, int sequence) {
		return this.invoices.save(new Invoice(customer).issue(run, sequence));
	}

	/** Saves an issued invoice, then fails: the transaction rolls back. */
	@Transactional("billingTransactionManager")
	public void issueThenFail(String run, String customer, int sequence) {
		this.invoices.saveAndFlush(new Invoice(customer).issue(run, sequence));
		throw new BusinessRuleViolated();
	}

}
