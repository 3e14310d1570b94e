package dev.outboxstarter.sample;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.outboxstarter.sample.orders.OrderController.OrderView;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The outbox's operations side over the sample's real HTTP server: health, metrics, Prometheus and the
 * {@code outbox} endpoint's reads for everyone; its actions, and the events' payloads, for the operator
 * only (HTTP basic, role {@code OPERATOR}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@AutoConfigureMetrics
class OperationsOverHttpSampleTests {

	private static final Consumer<HttpHeaders> ANONYMOUS = (headers) -> {
	};

	@Autowired
	private RestTestClient http;

	@Value("${spring.security.user.name}")
	private String operator;

	@Value("${spring.security.user.password}")
	private String operatorPassword;

	@Test
	void healthMetricsPrometheusAndTheOutboxEndpointAnswerOverHttp() {
		placeOrder("ops");
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
			String published = this.http.get()
				.uri("/actuator/prometheus")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody();
			assertThat(published).contains("outbox_events_published_total{path=\"fast\",transport=\"kafka\"}")
				.contains("outbox_backlog_pending ")
				.contains("outbox_publish_latency_seconds_bucket");
		});

		this.http.get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.components.outbox.status")
			.isEqualTo("UP")
			.jsonPath("$.components.outbox.details.dead")
			.isEqualTo(0);
		this.http.get()
			.uri("/actuator/metrics/outbox.events.captured")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[0].value")
			.value(Number.class, (value) -> assertThat(value.doubleValue()).isPositive());

		this.http.get()
			.uri("/actuator/outbox")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.dead")
			.isEqualTo(0)
			.jsonPath("$.events.PUBLISHED.kafka")
			.value(Number.class, (value) -> assertThat(value.longValue()).isPositive());
		this.http.get()
			.uri("/actuator/outbox/dead?page=0&size=10")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("DEAD")
			.jsonPath("$.events")
			.isArray();
		this.http.get()
			.uri("/actuator/outbox/published")
			.exchange()
			.expectStatus()
			.isBadRequest();
	}

	@Test
	void outboxActionsAreRefusedAnonymouslyAndCarriedOutForTheOperator() {
		UUID id = UUID.randomUUID();
		this.http.post()
			.uri("/actuator/outbox")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}")
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.expectHeader()
			.valueMatches(HttpHeaders.WWW_AUTHENTICATE, "Basic .*");
		this.http.post().uri("/actuator/outbox/{id}", id).exchange().expectStatus().isUnauthorized();
		this.http.delete().uri("/actuator/outbox/{id}", id).exchange().expectStatus().isUnauthorized();
		this.http.delete()
			.uri("/actuator/outbox/{id}", id)
			.headers((headers) -> headers.setBasicAuth(this.operator, "wrong"))
			.exchange()
			.expectStatus()
			.isUnauthorized();

		this.http.post()
			.uri("/actuator/outbox")
			.headers(this::asOperator)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.action")
			.isEqualTo("retry")
			.jsonPath("$.events")
			.isEqualTo(0);
		this.http.post()
			.uri("/actuator/outbox/{id}", id)
			.headers(this::asOperator)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.events")
			.isEqualTo(0);
		this.http.delete()
			.uri("/actuator/outbox/{id}", id)
			.headers(this::asOperator)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.action")
			.isEqualTo("discard");
	}

	@Test
	void pendingEventsValuesAreShownToTheOperatorOnlyWhoAloneMayDiscardTheEvent() {
		this.http.put().uri("/simulation/outage").exchange().expectStatus().isOk();
		try {
			UUID order = placeOrder("payload reader");
			JsonNode asOperator = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> pendingEvent(this::asOperator,
						(event) -> order.toString().equals(event.get("key").asString())), Objects::nonNull);
			assertThat(asOperator.path("payload").asString()).contains("payload reader");
			String eventId = asOperator.get("id").asString();
			JsonNode asAnyone = pendingEvent(ANONYMOUS, (event) -> eventId.equals(event.get("id").asString()));
			assertThat(asAnyone).as("listed to anonymous readers").isNotNull();
			assertThat(asAnyone.path("payload").isNull()).as("payload hidden from anonymous readers").isTrue();
			assertThat(asAnyone.path("headers").isNull()).as("headers hidden from anonymous readers").isTrue();
			assertThat(asAnyone.path("key").isNull()).as("key hidden from anonymous readers").isTrue();
			assertThat(asAnyone.path("aggregateId").isNull()).as("aggregate id hidden from anonymous readers").isTrue();

			this.http.delete().uri("/actuator/outbox/{id}", eventId).exchange().expectStatus().isUnauthorized();
			assertThat(pendingEvent(ANONYMOUS, (event) -> eventId.equals(event.get("id").asString())))
				.as("still pending")
				.isNotNull();
			this.http.delete()
				.uri("/actuator/outbox/{id}", eventId)
				.headers(this::asOperator)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.events")
				.isEqualTo(1);
			assertThat(pendingEvent(ANONYMOUS, (event) -> eventId.equals(event.get("id").asString())))
				.as("discarded")
				.isNull();
		}
		finally {
			this.http.delete().uri("/simulation/outage").exchange().expectStatus().isOk();
		}
	}

	@Test
	void simulatedOutageShowsItsTransportUnavailableAndMakesNoEventDead() {
		this.http.put().uri("/simulation/outage").exchange().expectStatus().isOk();
		try {
			placeOrder("outage");
			await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
				this.http.get()
					.uri("/actuator/outbox")
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody()
					.jsonPath("$.unavailableTransports[0]")
					.isEqualTo("kafka");
				this.http.get()
					.uri("/actuator/health")
					.exchange()
					.expectBody()
					.jsonPath("$.components.outbox.details.unavailableTransports[0]")
					.isEqualTo("kafka");
			});
		}
		finally {
			this.http.delete().uri("/simulation/outage").exchange().expectStatus().isOk();
		}
		placeOrder("after the outage");
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> this.http.get()
				.uri("/actuator/outbox")
				.exchange()
				.expectBody()
				.jsonPath("$.unavailableTransports")
				.isEmpty()
				.jsonPath("$.pending")
				.isEqualTo(0)
				.jsonPath("$.dead")
				.isEqualTo(0));
	}

	private UUID placeOrder(String customer) {
		return this.http.post()
			.uri("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("customer", customer, "amount", new BigDecimal("1.00")))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(OrderView.class)
			.returnResult()
			.getResponseBody()
			.id();
	}

	/**
	 * The first pending event the endpoint lists to these credentials that matches; a reader without
	 * the operator's role sees no key, so it finds an event by its id. Page after page: the payment
	 * reminders of the orders placed before, delayed events waiting for their time, come first.
	 */
	private @Nullable JsonNode pendingEvent(Consumer<HttpHeaders> credentials, Predicate<JsonNode> which) {
		for (int number = 0;; number++) {
			JsonNode page = this.http.get()
				.uri("/actuator/outbox/pending?size=200&page={page}", number)
				.headers(credentials)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(JsonNode.class)
				.returnResult()
				.getResponseBody();
			JsonNode events = page.get("events");
			if (events.isEmpty()) {
				return null;
			}
			JsonNode found = events.valueStream().filter(which).findFirst().orElse(null);
			if (found != null) {
				return found;
			}
		}
	}

	private void asOperator(HttpHeaders headers) {
		headers.setBasicAuth(this.operator, this.operatorPassword);
	}

}
