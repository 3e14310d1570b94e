package dev.outboxstarter.it.twodatabases.orders;

import dev.outboxstarter.it.twodatabases.BusinessRuleViolated;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places orders in transactions of the orders database's (primary) transaction manager.
 */
@Service
public class OrderService {

	private final CustomerOrderRepository orders;

	public OrderService(CustomerOrderRepository orders) {
		this.orders = orders;
	}

	@Transactional
	public CustomerOrder place(String run, String customer, int sequence) {
		return this.orders.save(new CustomerOrder(customer).place(run, sequence));
	}

	/** Saves a placed order, then fails: the transaction rolls back. */
	@Transactional
	public void placeThenFail(String run, String customer, int sequence) {
		this.orders.saveAndFlush(new CustomerOrder(customer).place(run, sequence));
		throw new BusinessRuleViolated();
	}

}
