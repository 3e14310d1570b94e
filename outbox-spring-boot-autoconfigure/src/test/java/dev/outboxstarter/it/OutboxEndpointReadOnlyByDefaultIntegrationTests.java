package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.actuate.OutboxEndpoint.EventsPage;
import dev.outboxstarter.it.KeyedSteps.Step;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Over HTTP, with nothing configured but its exposure: the {@code outbox} endpoint answers its reads,
 * without the values that may hold personal data (payloads, headers, keys, aggregate ids and last
 * errors), and maps none of its actions, so a request to retry or discard finds no
 * operation and changes nothing.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "test.topic=unused", "outbox.table-name=" + OutboxEndpointReadOnlyByDefaultIntegrationTests.TABLE,
				"outbox.relay.poll-interval=100ms", "outbox.retry.max-attempts=1",
				"management.endpoints.web.exposure.include=health,outbox" })
@AutoConfigureRestTestClient
@Import({ KeyedSteps.class, TenantHeader.class })
class OutboxEndpointReadOnlyByDefaultIntegrationTests {

	static final String TABLE = "outbox_it_endpoint_read_only";

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

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
	void readsAnswerWithoutPayloadsAndNoActionIsMapped() {
		String key = "read-only-" + UUID.randomUUID();
		this.transactions.executeWithoutResult(
				(status) -> this.outbox.publish("Customer", "ada@example.com", new Step(key, 1, true)));
		StoredEvent dead = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(this::dead, (events) -> events.size() == 1)
			.get(0);
		assertThat(dead.payload()).as("payload hidden by default").isNull();
		assertThat(dead.headers()).as("headers hidden by default").isNull();
		assertThat(dead.key()).as("key hidden by default").isNull();
		assertThat(dead.aggregateId()).as("aggregate id hidden by default").isNull();
		assertThat(dead.lastError()).as("last error hidden by default").isNull();
		assertThat(dead.eventType()).as("what is not personal data is shown").isEqualTo("Step");
		assertThat(dead.aggregateType()).isEqualTo("Customer");
		this.http.get().uri("/actuator/outbox").exchange().expectStatus().isOk().expectBody().jsonPath("$.dead")
			.value(Number.class, (count) -> assertThat(count.longValue()).isPositive());

		this.steps.healed.add(key);
		assertNotMapped(HttpMethod.POST, "/actuator/outbox/" + dead.id());
		assertNotMapped(HttpMethod.POST, "/actuator/outbox");
		assertNotMapped(HttpMethod.DELETE, "/actuator/outbox/" + dead.id());
		assertThat(dead()).as("still DEAD, neither retried nor discarded").singleElement()
			.satisfies((event) -> assertThat(event.attempts()).isEqualTo(dead.attempts()));
		assertThat(this.steps.handledOf(key)).isEmpty();
	}

	private void assertNotMapped(HttpMethod method, String uri) {
		this.http.method(method)
			.uri(uri)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
			.expectHeader()
			.valueEquals("Allow", "GET");
	}

	/** The DEAD events of this test's own table, which holds only the one event it publishes. */
	private List<StoredEvent> dead() {
		EventsPage page = this.http.get()
			.uri("/actuator/outbox/dead?size=200")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(EventsPage.class)
			.returnResult()
			.getResponseBody();
		assertThat(page.status()).isEqualTo(EventStatus.DEAD);
		return page.events();
	}

}
