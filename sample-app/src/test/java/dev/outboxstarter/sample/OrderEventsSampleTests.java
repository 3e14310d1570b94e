package dev.outboxstarter.sample;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.sample.consumer.ReceivedEvent;
import dev.outboxstarter.sample.consumer.ReceivedEvents;
import dev.outboxstarter.sample.orders.OrderController.OrderView;
import dev.outboxstarter.sample.orders.OrderStatus;
import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.CapturedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import dev.outboxstarter.test.TestOutboxRelay;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The sample as a user runs it: no profile, so H2 and the in-JVM Kafka broker, a real HTTP server,
 * and the application's own Kafka consumer at the other end. The test kit shows what the requests'
 * transactions captured and drains the outbox; no transport is recorded, the events go to Kafka.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@AutoConfigureMetrics
@AutoConfigureOutbox(recordedTransports = {})
class OrderEventsSampleTests {

	@Autowired
	private RestTestClient http;

	@Autowired
	private ReceivedEvents received;

	@Autowired
	private CapturedOutboxEvents captured;

	@Autowired
	private TestOutboxRelay relay;

	@Test
	void orderPlacedAndPaidOverHttpReachesTheConsumer() {
		OrderView placed = this.http.post()
			.uri("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("customer", "alice", "amount", new BigDecimal("42.50")))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(OrderView.class)
			.returnResult()
			.getResponseBody();
		assertThat(placed).isNotNull();
		assertThat(placed.status()).isEqualTo(OrderStatus.PLACED);
		String orderId = placed.id().toString();

		// The service pays a loaded order without save(): only the flush-time capture sees OrderPaid.
		this.http.post()
			.uri("/orders/{id}/pay", orderId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("PAID");

		// Each request's transaction captured its event, for the topic, keyed by the order id.
		assertThat(this.captured.all())
			.extracting(RecordedOutboxEvent::eventType, RecordedOutboxEvent::destination, RecordedOutboxEvent::key)
			.containsExactly(tuple("OrderPlaced", "orders", orderId), tuple("OrderPaymentReminder", "orders", orderId),
					tuple("OrderPaid", "orders", orderId));
		// The reminder is delayed: due a minute after its order was placed, it is not received in this test.
		assertThat(this.captured.all()).filteredOn((event) -> event.deliverAt() != null)
			.extracting(RecordedOutboxEvent::eventType)
			.containsExactly("OrderPaymentReminder");

		// Both events, in commit order, keyed by the order id.
		await().atMost(Duration.ofSeconds(30))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(this.received.forKey(orderId)).extracting(ReceivedEvent::eventType)
				.containsExactly("OrderPlaced", "OrderPaid"));
		List<ReceivedEvent> events = this.received.forKey(orderId);
		assertThat(events).allSatisfy((event) -> {
			assertThat(event.messageId()).as("outbox-message-id header").isNotBlank();
			assertThat(event.payload().get("orderId").asString()).isEqualTo(orderId);
			assertThat(event.payload().get("amount").decimalValue()).isEqualByComparingTo("42.50");
			assertThat(event.duplicate()).isFalse();
		});
		assertThat(events).extracting(ReceivedEvent::messageId).doesNotHaveDuplicates();
		assertThat(events).extracting(ReceivedEvent::messageId)
			.containsExactlyElementsOf(this.captured.all()
				.stream()
				.filter((event) -> event.deliverAt() == null)
				.map((event) -> event.id().toString())
				.toList());
		assertThat(events).extracting(ReceivedEvent::partition).containsOnly(events.get(0).partition());
		assertThat(events.get(0).payload().get("customer").asString()).isEqualTo("alice");

		// Once the outbox is drained (no row pending but the reminder waiting for its time), nothing is
		// left to send again: the consumer must then hold exactly these two messages and no duplicate.
		this.relay.drain();
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(2))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> {
				assertThat(this.received.duplicates()).isZero();
				assertThat(this.received.forKey(orderId)).hasSize(2);
			});

		// And GET /events shows the same.
		this.http.get()
			.uri("/events?key={key}", orderId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.count")
			.isEqualTo(2)
			.jsonPath("$.duplicates")
			.isEqualTo(0)
			.jsonPath("$.events[0].eventType")
			.isEqualTo("OrderPlaced")
			.jsonPath("$.events[1].eventType")
			.isEqualTo("OrderPaid")
			.jsonPath("$.events[0].key")
			.isEqualTo(orderId)
			.jsonPath("$.events[1].messageId")
			.isNotEmpty()
			.jsonPath("$.events[1].payload.orderId")
			.isEqualTo(orderId);
	}

}
