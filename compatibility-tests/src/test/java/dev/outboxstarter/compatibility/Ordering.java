package dev.outboxstarter.compatibility;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The business transaction: saves an order, and the outbox captures its event in the same commit.
 */
@Service
class Ordering {

	private final PurchaseOrders orders;

	Ordering(PurchaseOrders orders) {
		this.orders = orders;
	}

	@Transactional
	PurchaseOrder place(String customer) {
		return this.orders.save(PurchaseOrder.place(customer));
	}

}
