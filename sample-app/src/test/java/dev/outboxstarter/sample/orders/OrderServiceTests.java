package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.util.UUID;

import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.PublishedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import dev.outboxstarter.test.TestOutboxRelay;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

// The whole application, with a recording transport in place of Kafka (@AutoConfigureOutbox records
// kafka by default): no broker is started, and the sample's Kafka admin and listener stay idle.
@SpringBootTest(properties = { "sample.kafka.embedded=false", "spring.kafka.admin.auto-create=false",
		"spring.kafka.listener.auto-startup=false" })
@AutoConfigureOutbox
class OrderServiceTests {

	@Autowired
	private OrderService orderService;

	@Autowired
	private PublishedOutboxEvents published;

	@Autowired
	private TestOutboxRelay relay;

	@Test
	void placedAndPaidOrderIsPublishedInCommitOrderOnItsKey() {
		UUID id = this.orderService.place("alice", new BigDecimal("42.50")).getId();
		this.orderService.pay(id);

		this.published.await(OrderPaid.class, (paid) -> paid.orderId().equals(id));
		assertThat(this.published.all()).filteredOn((event) -> id.toString().equals(event.key()))
			.extracting(RecordedOutboxEvent::eventType)
			.containsExactly("OrderPlaced", "OrderPaid");
	}

	@Test
	void refusedSecondCancellationPublishesNoSecondOrderCancelled() {
		UUID id = this.orderService.place("bob", new BigDecimal("10.00")).getId();
		this.orderService.cancel(id, "too slow");

		assertThatExceptionOfType(IllegalOrderStateException.class)
			.isThrownBy(() -> this.orderService.cancel(id, "again"));

		this.relay.drain();
		assertThat(this.published.payloads(OrderCancelled.class)).containsExactly(new OrderCancelled(id, "too slow"));
	}

}
