package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The orders API.
 * <ul>
 * <li>{@code POST /orders} {@code {"customer": "alice", "amount": 42.50}}: places an order</li>
 * <li>{@code POST /orders/{id}/pay}: pays it</li>
 * <li>{@code POST /orders/{id}/cancel} (optional body {@code {"reason": "..."}}): cancels it</li>
 * <li>{@code GET /orders}: lists the orders; {@code GET /orders/count} counts them</li>
 * </ul>
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

	private final OrderService service;

	public OrderController(OrderService service) {
		this.service = service;
	}

	@PostMapping
	public ResponseEntity<OrderView> place(@RequestBody PlaceOrder request) {
		if (request.customer() == null || request.customer().isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "customer is required");
		}
		if (request.amount() == null || request.amount().signum() <= 0) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "amount must be positive");
		}
		OrderView order = OrderView.of(this.service.place(request.customer(), request.amount()));
		return ResponseEntity.status(HttpStatus.CREATED).body(order);
	}

	@PostMapping("/{id}/pay")
	public OrderView pay(@PathVariable UUID id) {
		return OrderView.of(this.service.pay(id));
	}

	@PostMapping("/{id}/cancel")
	public OrderView cancel(@PathVariable UUID id, @RequestBody(required = false) CancelOrder request) {
		return OrderView.of(this.service.cancel(id, (request != null) ? request.reason() : null));
	}

	@GetMapping("/count")
	public long count() {
		return this.service.count();
	}

	@GetMapping
	public List<OrderView> list() {
		return this.service.findAll().stream().map(OrderView::of).toList();
	}

	/**
	 * Body of {@code POST /orders}.
	 *
	 * @param customer who orders
	 * @param amount what it costs
	 */
	public record PlaceOrder(String customer, BigDecimal amount) {
	}

	/**
	 * Optional body of {@code POST /orders/{id}/cancel}.
	 *
	 * @param reason why
	 */
	public record CancelOrder(String reason) {
	}

	/**
	 * An order as the API shows it.
	 *
	 * @param id its id, also the message key of its events
	 * @param customer who ordered
	 * @param amount what it costs
	 * @param status where it stands
	 * @param placedAt when it was placed
	 */
	public record OrderView(UUID id, String customer, BigDecimal amount, OrderStatus status, Instant placedAt) {

		static OrderView of(Order order) {
			return new OrderView(order.getId(), order.getCustomer(), order.getAmount(), order.getStatus(),
					order.getPlacedAt());
		}

	}

}
