package dev.outboxstarter.it.orders;

import java.util.List;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class OrderService {

	private final PurchaseOrderRepository orders;

	public OrderService(PurchaseOrderRepository orders) {
		this.orders = orders;
	}

	/** Saves a new order that raised the given events. */
	@Transactional
	public PurchaseOrder place(String customer, Object... events) {
		PurchaseOrder order = new PurchaseOrder(customer);
		for (Object event : events) {
			order.raise(event);
		}
		return this.orders.save(order);
	}

	/** Saves several new orders in one transaction, each with one OrderPlaced event. */
	@Transactional
	public List<PurchaseOrder> placeAll(List<String> customers) {
		return this.orders.saveAll(customers.stream()
			.map((customer) -> new PurchaseOrder(customer).raise(new OrderPlaced(customer, 1)))
			.toList());
	}

	/** Loads and changes an order without calling save(): dirty checking flushes it at commit. */
	@Transactional
	public void pay(Long orderId) {
		this.orders.findById(orderId).orElseThrow().pay();
	}

	/** Saves an order, then fails: the transaction rolls back. */
	@Transactional
	public void placeThenFail(String customer) {
		this.orders.save(new PurchaseOrder(customer).raise(new OrderPlaced(customer, 1)));
		throw new IllegalStateException("business rule violated after save");
	}

	@Transactional
	public void delete(Long orderId) {
		PurchaseOrder order = this.orders.findById(orderId).orElseThrow();
		order.raise(new OrderPlaced(order.getCustomer() + "-deleted", 0));
		this.orders.delete(order);
	}

}
