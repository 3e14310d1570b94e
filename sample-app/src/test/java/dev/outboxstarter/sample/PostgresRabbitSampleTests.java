package dev.outboxstarter.sample;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import dev.outboxstarter.sample.consumer.ReceivedEvent;
import dev.outboxstarter.sample.consumer.ReceivedEvents;
import dev.outboxstarter.sample.orders.OrderController.OrderView;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The same flow on the {@code postgres} and {@code rabbit} profiles, against the local PostgreSQL
 * (127.0.0.1:5432, database {@code test}) and RabbitMQ (127.0.0.1:5672).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@ActiveProfiles({ "postgres", "rabbit" })
class PostgresRabbitSampleTests {

	@Autowired
	private RestTestClient http;

	@Autowired
	private ReceivedEvents received;

	@Autowired
	private JdbcClient jdbc;

	@Test
	void orderPlacedAndPaidOverHttpReachesTheRabbitConsumerThroughPostgres() {
		assertThat(this.jdbc.sql("SELECT version()").query(String.class).single()).startsWith("PostgreSQL");
		OrderView placed = this.http.post()
			.uri("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("customer", "bob", "amount", new BigDecimal("7.25")))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(OrderView.class)
			.returnResult()
			.getResponseBody();
		String orderId = placed.id().toString();
		this.http.post().uri("/orders/{id}/pay", orderId).exchange().expectStatus().isOk();

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(this.received.forKey(orderId)).extracting(ReceivedEvent::eventType)
				.containsExactly("OrderPlaced", "OrderPaid"));
		assertThat(this.received.forKey(orderId)).allSatisfy((event) -> {
			assertThat(event.messageId()).isNotBlank();
			assertThat(event.payload().get("orderId").asString()).isEqualTo(orderId);
			assertThat(event.duplicate()).isFalse();
		});
		assertThat(this.received.forKey(orderId).get(0).payload().get("amount").decimalValue())
			.isEqualByComparingTo("7.25");
	}

}
