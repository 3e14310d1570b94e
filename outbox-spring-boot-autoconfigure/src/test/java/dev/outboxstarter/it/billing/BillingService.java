package dev.outboxstarter.it.billing;

import javax.sql.DataSource;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.it.orders.InvoiceRequested;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Invoices customers in the billing database, whose invoices refer to their customer through a
 * foreign key checked at commit, and announces each invoice through the outbox.
 */
@Service
public class BillingService {

	private final JdbcTemplate jdbc;

	private final JdbcTemplate billing;

	private final Outbox outbox;

	public BillingService(JdbcTemplate jdbc, @Qualifier("billing") DataSource billingDataSource, Outbox outbox) {
		this.jdbc = jdbc;
		this.billing = new JdbcTemplate(billingDataSource);
		this.outbox = outbox;
	}

	/**
	 * Reads the outbox's database, invoices the customer and announces the invoice, in a transaction
	 * of the billing database's transaction manager.
	 */
	@Transactional("billingTm")
	public void invoice(long customerId, String reference) {
		this.jdbc.queryForObject("SELECT COUNT(*) FROM billing.customer", Integer.class);
		this.billing.update("INSERT INTO billing.invoice (customer_id, reference) VALUES (?, ?)", customerId,
				reference);
		this.outbox.publish("Invoice", reference, new InvoiceRequested(reference));
	}

	/** Announces an invoice in a transaction of the outbox database's (primary) transaction manager. */
	@Transactional
	public void announce(String reference) {
		this.outbox.publish("Invoice", reference, new InvoiceRequested(reference));
	}

}
