package dev.outboxstarter.compatibility;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * An aggregate that registers {@link OrderPlaced} when it is placed.
 */
@Entity
@Table(name = "compatibility_order")
class PurchaseOrder extends AbstractAggregateRoot<PurchaseOrder> {

	@Id
	private UUID id;

	private String customer;

	protected PurchaseOrder() {
	}

	static PurchaseOrder place(String customer) {
		PurchaseOrder order = new PurchaseOrder();
		order.id = UUID.randomUUID();
		order.customer = customer;
		order.registerEvent(new OrderPlaced(order.id, customer));
		return order;
	}

	UUID getId() {
		return this.id;
	}

	String getCustomer() {
		return this.customer;
	}

}
