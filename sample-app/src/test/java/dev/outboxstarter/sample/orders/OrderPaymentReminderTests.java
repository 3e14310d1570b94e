package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.PublishedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

// The payment reminder is a delayed event: with a short delay, a test sees it published after the order's
// other events, and not before its time.
@SpringBootTest(properties = { "sample.kafka.embedded=false", "spring.kafka.admin.auto-create=false",
		"spring.kafka.listener.auto-startup=false", "sample.payment-reminder-delay=2s" })
@AutoConfigureOutbox
class OrderPaymentReminderTests {

	@Autowired
	private OrderService orderService;

	@Autowired
	private PublishedOutboxEvents published;

	@Test
	void placedOrderHasItsPaymentReminderPublishedOnceItsDelayHasPassedWithoutHoldingBackItsPayment() {
		Instant placing = Instant.now();
		UUID id = this.orderService.place("dora", new BigDecimal("12.00")).getId();
		this.orderService.pay(id);

		RecordedOutboxEvent reminder = this.published.await(OrderPaymentReminder.class,
				(event) -> event.orderId().equals(id));

		assertThat(reminder.deliverAt()).isAfterOrEqualTo(placing.plusSeconds(2));
		assertThat(reminder.payloadAs(OrderPaymentReminder.class).customer()).isEqualTo("dora");
		assertThat(this.published.all()).filteredOn((event) -> id.toString().equals(event.key()))
			.extracting(RecordedOutboxEvent::eventType)
			.containsExactly("OrderPlaced", "OrderPaid", "OrderPaymentReminder");
	}

}
