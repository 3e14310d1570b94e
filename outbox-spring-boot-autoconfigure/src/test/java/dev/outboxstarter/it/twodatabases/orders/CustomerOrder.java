package dev.outboxstarter.it.twodatabases.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * An order of the orders database.
 */
@Entity
@Table(name = "two_databases_order")
public class CustomerOrder extends AbstractAggregateRoot<CustomerOrder> {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String customer;

	protected CustomerOrder() {
	}

	public CustomerOrder(String customer) {
		this.customer = customer;
	}

	public Long getId() {
		return this.id;
	}

	public String getCustomer() {
		return this.customer;
	}

	/**
	 * Places this order, the customer's {@code sequence}-th of the run.
	 * @param run the test run the order belongs to
	 * @param sequence its place among the customer's orders
	 * @return this order
	 */
	public CustomerOrder place(String run, int sequence) {
		registerEvent(new OrderPlaced(run, this.customer, sequence));
		return this;
	}

}
