package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * The order aggregate. Each state change registers a domain event; the outbox starter writes the
 * events of {@code @OutboxEvent} types to the outbox table in the same transaction.
 */
@Entity
@Table(name = "orders") // "order" is a reserved word in SQL
public class Order extends AbstractAggregateRoot<Order> {

	@Id
	private UUID id;

	// Null until the first insert, which is how Spring Data tells a new order (id assigned here) from
	// a stored one, so save() persists instead of merging.
	@Version
	private Long version;

	@Column(nullable = false)
	private String customer;

	@Column(nullable = false, precision = 19, scale = 2)
	private BigDecimal amount;

	@Enumerated(EnumType.STRING)
	@Column(nullable = false, length = 16)
	private OrderStatus status;

	@Column(nullable = false)
	private Instant placedAt;

	protected Order() {
		// for JPA
	}

	private Order(UUID id, String customer, BigDecimal amount) {
		this.id = id;
		this.customer = customer;
		this.amount = amount;
		this.status = OrderStatus.PLACED;
		this.placedAt = Instant.now();
	}

	/**
	 * A new order; save it to place it.
	 * @param customer who orders
	 * @param amount what it costs
	 * @return the order, with an {@link OrderPlaced} event and a delayed {@link OrderPaymentReminder}
	 * registered
	 */
	public static Order place(String customer, BigDecimal amount) {
		Order order = new Order(UUID.randomUUID(), customer, amount);
		order.registerEvent(new OrderPlaced(order.id, customer, amount));
		order.registerEvent(new OrderPaymentReminder(order.id, customer, amount));
		return order;
	}

	/**
	 * Pays the order. No save() needed: the change is flushed at commit and the outbox picks up the
	 * {@link OrderPaid} event then.
	 * @throws IllegalOrderStateException if the order is not waiting for payment
	 */
	public void pay() {
		requireStatus(OrderStatus.PLACED, "pay");
		this.status = OrderStatus.PAID;
		registerEvent(new OrderPaid(this.id, this.amount));
	}

	/**
	 * Cancels the order.
	 * @param reason why, may be {@code null}
	 * @throws IllegalOrderStateException if the order is already cancelled
	 */
	public void cancel(String reason) {
		if (this.status == OrderStatus.CANCELLED) {
			throw new IllegalOrderStateException(this.id, this.status, "cancel");
		}
		this.status = OrderStatus.CANCELLED;
		registerEvent(new OrderCancelled(this.id, reason));
	}

	private void requireStatus(OrderStatus expected, String action) {
		if (this.status != expected) {
			throw new IllegalOrderStateException(this.id, this.status, action);
		}
	}

	public UUID getId() {
		return this.id;
	}

	public Long getVersion() {
		return this.version;
	}

	public String getCustomer() {
		return this.customer;
	}

	public BigDecimal getAmount() {
		return this.amount;
	}

	public OrderStatus getStatus() {
		return this.status;
	}

	public Instant getPlacedAt() {
		return this.placedAt;
	}

}
