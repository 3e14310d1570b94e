package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.util.UUID;

import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.CapturedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

// The sample starts a Kafka broker in its JVM unless told not to; this slice needs none.
@DataJpaTest(properties = "sample.kafka.embedded=false")
@AutoConfigureOutbox
class OrderAggregateTests {

	@Autowired
	private OrderRepository orders;

	@Autowired
	private CapturedOutboxEvents captured;

	@Test
	void placingAnOrderCapturesOrderPlacedKeyedByTheOrder() {
		Order order = this.orders.save(Order.place("alice", new BigDecimal("42.50")));

		assertThat(this.captured.payloads(OrderPlaced.class))
			.containsExactly(new OrderPlaced(order.getId(), "alice", new BigDecimal("42.50")));
		assertThat(this.captured.ofType(OrderPlaced.class)).singleElement().satisfies((event) -> {
			assertThat(event.destination()).isEqualTo("orders");
			assertThat(event.key()).isEqualTo(order.getId().toString());
			assertThat(event.aggregateType()).isEqualTo("Order");
		});
	}

	@Test
	void payingALoadedOrderCapturesOrderPaidWithoutSave() {
		UUID id = this.orders.saveAndFlush(Order.place("bob", new BigDecimal("10.00"))).getId();

		this.orders.findById(id).orElseThrow().pay();

		assertThat(this.captured.all()).extracting(RecordedOutboxEvent::eventType, RecordedOutboxEvent::key)
			.containsExactly(tuple("OrderPlaced", id.toString()), tuple("OrderPaymentReminder", id.toString()),
					tuple("OrderPaid", id.toString()));
	}

	@Test
	void payingACancelledOrderIsRefusedAndCapturesNoOrderPaid() {
		Order order = this.orders.save(Order.place("carol", new BigDecimal("5.00")));
		order.cancel("changed my mind");

		assertThatExceptionOfType(IllegalOrderStateException.class).isThrownBy(order::pay);

		assertThat(this.captured.ofType(OrderPaid.class)).isEmpty();
		assertThat(this.captured.payloads(OrderCancelled.class))
			.containsExactly(new OrderCancelled(order.getId(), "changed my mind"));
	}

}
