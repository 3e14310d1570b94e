package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The use cases. Each runs in one transaction: the order rows and the outbox rows of its events
 * commit (or roll back) together.
 */
@Service
@Transactional
public class OrderService {

	private final OrderRepository orders;

	public OrderService(OrderRepository orders) {
		this.orders = orders;
	}

	/**
	 * Places an order: {@code save()} publishes {@link OrderPlaced}.
	 * @param customer who orders
	 * @param amount what it costs
	 * @return the placed order
	 */
	public Order place(String customer, BigDecimal amount) {
		return this.orders.save(Order.place(customer, amount));
	}

	/**
	 * Pays an order. Deliberately no {@code save()}: the order is managed, Hibernate flushes the
	 * change at commit, and the outbox captures {@link OrderPaid} at that flush.
	 * @param id the order
	 * @return the paid order
	 */
	public Order pay(UUID id) {
		Order order = find(id);
		order.pay();
		return order;
	}

	/**
	 * Cancels an order, this time with an explicit {@code save()}: the event is captured once, not
	 * again at the flush.
	 * @param id the order
	 * @param reason why, may be {@code null}
	 * @return the cancelled order
	 */
	public Order cancel(UUID id, String reason) {
		Order order = find(id);
		order.cancel(reason);
		return this.orders.save(order);
	}

	/**
	 * All orders, oldest first.
	 * @return the orders
	 */
	@Transactional(readOnly = true)
	public List<Order> findAll() {
		return this.orders.findAll(Sort.by("placedAt", "id"));
	}

	private Order find(UUID id) {
		return this.orders.findById(id).orElseThrow(() -> new OrderNotFoundException(id));
	}

	@Transactional(readOnly = true)
	public long count() {
		return this.orders.count();
	}

}
