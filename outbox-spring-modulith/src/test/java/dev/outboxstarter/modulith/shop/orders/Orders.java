package dev.outboxstarter.modulith.shop.orders;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The orders module's service: stores an order and publishes an event per line, in one transaction.
 */
@Service
public class Orders {

	private final JdbcClient jdbc;

	private final ApplicationEventPublisher events;

	Orders(JdbcClient jdbc, ApplicationEventPublisher events) {
		this.jdbc = jdbc;
		this.events = events;
	}

	/**
	 * Places an order.
	 * @param orderId the order
	 * @param customerId its customer
	 * @param lines how many lines it has
	 */
	@Transactional
	public void place(String orderId, String customerId, int lines) {
		this.jdbc.sql("INSERT INTO modulith_shop_order (id, customer) VALUES (?, ?)")
			.params(orderId, customerId)
			.update();
		for (int line = 1; line <= lines; line++) {
			this.events.publishEvent(new OrderPlaced(orderId, customerId, line));
		}
	}

	/**
	 * Places an order, then fails: the transaction rolls back.
	 * @param orderId the order
	 * @param customerId its customer
	 */
	@Transactional
	public void placeAndFail(String orderId, String customerId) {
		place(orderId, customerId, 1);
		throw new IllegalStateException("Payment refused for order " + orderId);
	}

}
