package dev.outboxstarter.sample;

import java.time.Duration;
import java.util.List;

import dev.outboxstarter.sample.consumer.ReceivedEvent;
import dev.outboxstarter.sample.consumer.ReceivedEvents;
import dev.outboxstarter.sample.load.LoadGenerator.Progress;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The load endpoint's orders all reach the consumer, each event once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@AutoConfigureMetrics
class LoadSampleTests {

	private static final int ORDERS = 300;

	@Autowired
	private RestTestClient http;

	@Autowired
	private ReceivedEvents received;

	@Test
	void everyOrderOfALoadRunReachesTheConsumerOnce() {
		Progress started = this.http.post()
			.uri("/load?orders={orders}&rate={rate}", ORDERS, 300)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(Progress.class)
			.returnResult()
			.getResponseBody();
		assertThat(started.requested()).isEqualTo(ORDERS);
		String customers = "load" + started.run() + "-";
		this.http.post().uri("/load?orders=0").exchange().expectStatus().isBadRequest();

		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> this.http.get()
				.uri("/load")
				.exchange()
				.expectBody()
				.jsonPath("$.running")
				.isEqualTo(false)
				.jsonPath("$.placed")
				.isEqualTo(ORDERS)
				.jsonPath("$.failed")
				.isEqualTo(0));
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> placedEventsOf(customers), (events) -> events.size() == ORDERS);
		assertThat(placedEventsOf(customers)).extracting(ReceivedEvent::duplicate).containsOnly(false);
	}

	private List<ReceivedEvent> placedEventsOf(String customerPrefix) {
		return this.received.all()
			.stream()
			.filter((event) -> "OrderPlaced".equals(event.eventType()))
			.filter((event) -> event.payload().get("customer").asString().startsWith(customerPrefix))
			.toList();
	}

}
