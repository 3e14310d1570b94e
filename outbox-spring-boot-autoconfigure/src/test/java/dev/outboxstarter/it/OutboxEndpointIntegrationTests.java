package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.actuate.OutboxEndpoint;
import dev.outboxstarter.actuate.OutboxEndpoint.ActionResult;
import dev.outboxstarter.actuate.OutboxEndpoint.EventsPage;
import dev.outboxstarter.it.KeyedSteps.Step;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Over HTTP, with write access granted and values shown: the {@code outbox} endpoint lists DEAD events
 * with their payload and headers, retries one once its cause is fixed, which delivers it, and discards
 * another, which is then gone.
 */
@SpringBootTest(classes = OrdersTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "test.topic=unused", "outbox.table-name=" + OutboxEndpointIntegrationTests.TABLE,
				"outbox.relay.poll-interval=100ms", "outbox.retry.initial-delay=100ms", "outbox.retry.max-delay=100ms",
				"outbox.retry.jitter=0", "outbox.retry.max-attempts=2",
				"management.endpoints.web.exposure.include=health,outbox",
				"management.endpoint.outbox.access=unrestricted", "management.endpoint.outbox.show-values=always" })
@AutoConfigureRestTestClient
@Import({ KeyedSteps.class, TenantHeader.class })
class OutboxEndpointIntegrationTests {

	static final String TABLE = "outbox_it_endpoint";

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Autowired
	private OutboxEndpoint endpoint;

	@Autowired
	private RestTestClient http;

	@Autowired
	private Outbox outbox;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private KeyedSteps steps;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void deadEventsAreListedWithPayloadRetriedIntoDeliveryOrDiscarded() {
		String toRetry = "retry-" + UUID.randomUUID();
		String toDiscard = "discard-" + UUID.randomUUID();
		this.transactions.executeWithoutResult((status) -> {
			this.outbox.publish(new Step(toRetry, 1, true));
			this.outbox.publish(new Step(toDiscard, 1, true));
		});
		List<StoredEvent> dead = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> deadOf(toRetry, toDiscard), (events) -> events.size() == 2);
		assertThat(dead).allSatisfy((event) -> {
			assertThat(event.status()).isEqualTo(EventStatus.DEAD);
			assertThat(event.eventType()).isEqualTo("Step");
			assertThat(event.transport()).isEqualTo("local");
			assertThat(event.destination()).isEqualTo("steps");
			assertThat(event.attempts()).isEqualTo(2);
			assertThat(event.lastError()).contains("is poisoned");
			assertThat(event.payload()).as("payload shown with show-values=always")
				.contains("\"key\":\"" + event.key() + "\"");
			assertThat(event.headers()).contains("\"tenant\":\"" + TenantHeader.TENANT + "\"");
		});
		this.http.get()
			.uri("/actuator/outbox")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.dead")
			.value(Number.class, (count) -> assertThat(count.longValue()).isGreaterThanOrEqualTo(2))
			.jsonPath("$.events.DEAD.local")
			.exists();

		this.steps.healed.add(toRetry);
		StoredEvent retried = dead.stream().filter((event) -> toRetry.equals(event.key())).findFirst().orElseThrow();
		assertThat(action(HttpMethod.POST, retried.id())).isEqualTo(new ActionResult("retry", 1));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.steps.handledOf(toRetry).equals(List.of(toRetry + "#1")));
		assertThat(action(HttpMethod.POST, retried.id()).events()).as("no longer DEAD").isZero();

		StoredEvent discarded = dead.stream().filter((event) -> toDiscard.equals(event.key())).findFirst().orElseThrow();
		assertThat(action(HttpMethod.DELETE, discarded.id())).isEqualTo(new ActionResult("discard", 1));
		assertThat(deadOf(toRetry, toDiscard)).isEmpty();
		assertThat(action(HttpMethod.DELETE, discarded.id()).events()).as("already gone").isZero();
		assertThat(this.steps.handledOf(toDiscard)).isEmpty();
	}

	@Test
	void retryAllOfOneTypePutsBackOnlyThatType() {
		String key = "all-" + UUID.randomUUID();
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(new Step(key, 1, true)));
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> deadOf(key).size() == 1);
		assertThat(retryAll("{\"eventType\":\"NoSuchType\"}").events()).isZero();
		this.steps.healed.add(key);
		assertThat(retryAll("{\"eventType\":\"Step\"}").events()).isGreaterThanOrEqualTo(1);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.steps.handledOf(key).equals(List.of(key + "#1")));
	}

	@Test
	void badListingRequestsAreRefusedWithWhatToDo() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.events("published", null, null, null, SecurityContext.NONE))
			.withMessageContaining("'published' is not a status that can be listed")
			.withMessageContaining("pending");
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.events("dead", 0, 1000, null, SecurityContext.NONE))
			.withMessageContaining("size must be between 1 and 200");
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.events("dead", -1, null, null, SecurityContext.NONE))
			.withMessageContaining("page must be 0 or more");
	}

	private ActionResult action(HttpMethod method, UUID id) {
		return this.http.method(method)
			.uri("/actuator/outbox/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(ActionResult.class)
			.returnResult()
			.getResponseBody();
	}

	private ActionResult retryAll(String body) {
		return this.http.post()
			.uri("/actuator/outbox")
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(ActionResult.class)
			.returnResult()
			.getResponseBody();
	}

	private List<StoredEvent> deadOf(String... keys) {
		List<String> wanted = List.of(keys);
		EventsPage page = this.http.get()
			.uri("/actuator/outbox/dead?size=200")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(EventsPage.class)
			.returnResult()
			.getResponseBody();
		return page.events().stream().filter((event) -> wanted.contains(event.key())).toList();
	}

}
