package dev.outboxstarter.it.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

import org.springframework.data.domain.AbstractAggregateRoot;

@Entity
public class PurchaseOrder extends AbstractAggregateRoot<PurchaseOrder> {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String customer;

	private String status;

	protected PurchaseOrder() {
	}

	public PurchaseOrder(String customer) {
		this.customer = customer;
		this.status = "NEW";
	}

	public Long getId() {
		return this.id;
	}

	public String getCustomer() {
		return this.customer;
	}

	public String getStatus() {
		return this.status;
	}

	/** Raises an event for this order; for the tests that need any event. */
	public PurchaseOrder raise(Object event) {
		registerEvent(event);
		return this;
	}

	public PurchaseOrder pay() {
		this.status = "PAID";
		registerEvent(new OrderPaid(this.id));
		return this;
	}

}
