package dev.outboxstarter.console;

import java.io.IOException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.console.shipping.Parcels;
import dev.outboxstarter.console.shipping.ShippingTestApplication;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What users do in the console, in headless Chromium against the running application on PostgreSQL and
 * Kafka, behind the application's Spring Security: an operator finds an event the broker refused as too
 * large for its topic, retries it once the topic takes it, republishes a range of published events to
 * another topic and discards an event; an anonymous user reads but has no action and is refused one forged; a signed-in
 * user without the operator role sees no action button, no payload, and gets 403 for forged actions.
 * Every action, taken or refused, is logged with who tried it.
 */
@SpringBootTest(classes = ShippingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "console.topic=" + ConsoleActionsBrowserTests.TOPIC,
				"outbox.table-name=" + ConsoleActionsBrowserTests.TABLE, "outbox.relay.poll-interval=200ms",
				"outbox.fast-path.grace-period=1s", "outbox.backlog.refresh-interval=100ms",
				"management.endpoints.web.exposure.include=outboxconsole",
				"management.endpoint.outboxconsole.access=unrestricted",
				"management.endpoint.outboxconsole.operator-roles=OPERATOR",
				"management.endpoint.outboxconsole.sample-interval=250ms",
				"management.endpoint.outboxconsole.history=2m", "management.endpoint.outbox.show-values=when-authorized",
				"management.endpoint.outbox.roles=OPERATOR" })
@ExtendWith(OutputCaptureExtension.class)
class ConsoleActionsBrowserTests {

	static final String TOPIC = "console-parcels";

	static final String REPLAY_TOPIC = "console-parcels-replay";

	static final String TABLE = "outbox_console_actions";

	/** The topic's max.message.bytes at first: a parcel with a longer note is DEAD at once. */
	private static final int TOPIC_LIMIT = 4096;

	private static TopicRecorder topic;

	private static TopicRecorder replayTopic;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 1, Map.of("max.message.bytes", String.valueOf(TOPIC_LIMIT)));
		TestKafka.createTopic(REPLAY_TOPIC, 1);
	}

	@LocalServerPort
	private int port;

	@Autowired
	private Parcels parcels;

	@Autowired
	private OutboxMonitoring monitoring;

	private ConsoleBrowser browser;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@BeforeAll
	static void subscribe() {
		topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC);
		replayTopic = new TopicRecorder(TestKafka.bootstrapServers(), REPLAY_TOPIC);
	}

	@AfterAll
	static void unsubscribe() {
		topic.close();
		replayTopic.close();
	}

	@BeforeEach
	void startBrowser() throws IOException {
		this.browser = ConsoleBrowser.start(this.port);
	}

	@AfterEach
	void stopBrowser() {
		if (this.browser != null) {
			this.browser.close();
		}
	}

	@Test
	void operatorRetriesADeadEventOnceItsTopicTakesItAndRepublishesARangeToAnotherTopic(CapturedOutput output)
			throws Exception {
		String run = UUID.randomUUID().toString();
		List<StoredEvent> shipped = List.of(shipAndAwait(run + "-1", "first"), shipAndAwait(run + "-2", "second"),
				shipAndAwait(run + "-3", "third"));
		// Longer than the topic takes now, shorter than what it takes once raised below.
		StoredEvent dead = shipAndAwait(run + "-large", "x".repeat(2 * TOPIC_LIMIT));
		assertThat(dead.status()).isEqualTo(EventStatus.DEAD);

		this.browser.signIn("operator", "operator-password");
		assertThat(this.browser.text("actions-note")).isEqualTo("may act");
		this.browser.until((driver) -> this.browser.text("dead-by-destination").contains("ParcelShipped kafka " + TOPIC));
		this.browser.clickFirstRow("dead-by-destination");
		this.browser.openResult(dead.id().toString());
		assertThat(this.browser.text("detail-status")).isEqualTo("DEAD");
		assertThat(this.browser.text("detail-attempts")).isEqualTo("1");
		assertThat(this.browser.text("detail-error")).contains("RecordTooLargeException");
		assertThat(this.browser.text("detail-key")).isEqualTo(run + "-large");
		assertThat(this.browser.text("detail-encoding")).isEqualTo("(json)");
		assertThat(this.browser.text("detail-payload")).contains("\"parcelId\": \"" + run + "-large\"");
		this.browser.screenshot("console-event.png");

		TestKafka.alterTopic(TOPIC, "max.message.bytes", String.valueOf(4 * TOPIC_LIMIT));
		this.browser.click("retry-event");
		this.browser.until((driver) -> this.browser.text("message").equals("retry: 1 event(s)"));
		Received retried = await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> received(topic, run + "-large"), (records) -> !records.isEmpty())
			.get(0);
		assertThat(retried.header(OutboxHeaders.MESSAGE_ID)).isEqualTo(dead.id().toString());
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.monitoring.find(dead.id(), false).status(), EventStatus.PUBLISHED::equals);

		// The range: the three parcels shipped first, by the times they were written.
		this.browser.type("filter-from", shipped.get(0).createdAt().toString());
		this.browser.type("filter-to", shipped.get(2).createdAt().plus(1, ChronoUnit.MICROS).toString());
		this.browser.select("filter-status", "PUBLISHED");
		this.browser.click("search");
		List<String> newestFirst = List.of(shipped.get(2).id().toString(), shipped.get(1).id().toString(),
				shipped.get(0).id().toString());
		this.browser.until((driver) -> this.browser.resultIds().equals(newestFirst));
		this.browser.type("republish-target", REPLAY_TOPIC);
		// Edited but not searched: the action takes the events of the search on screen.
		this.browser.type("filter-destination", REPLAY_TOPIC);
		this.browser.click("republish");
		this.browser.acceptConfirmation();
		this.browser.until((driver) -> this.browser.text("message").equals("republish: 3 event(s)"));
		List<Received> republished = await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> received(replayTopic, run), (records) -> records.size() == 3);
		assertThat(republished).extracting(Received::key).containsExactly(run + "-1", run + "-2", run + "-3");
		assertThat(republished).extracting((record) -> record.header(OutboxHeaders.REPUBLISHED_FROM))
			.containsExactlyElementsOf(shipped.stream().map((event) -> event.id().toString()).toList());
		assertThat(republished).extracting((record) -> record.header(OutboxHeaders.MESSAGE_ID))
			.doesNotContainAnyElementsOf(shipped.stream().map((event) -> event.id().toString()).toList());
		assertThat(received(topic, run + "-1")).as("the originals are not sent again").hasSize(1);
		this.browser.until((driver) -> this.browser.text("detail-status").equals("PUBLISHED"));
		this.browser.type("filter-destination", REPLAY_TOPIC);
		this.browser.select("filter-status", "any");
		this.browser.type("filter-from", "");
		this.browser.type("filter-to", "");
		this.browser.click("search");
		this.browser.until((driver) -> this.browser.resultIds().size() == 3
				&& this.browser.text("results").contains("kafka " + REPLAY_TOPIC));
		this.browser.scrollTo("find-title");
		this.browser.screenshot("console-republish.png");

		// Too large even for the raised limit: the operator discards it.
		StoredEvent unwanted = shipAndAwait(run + "-unwanted", "x".repeat(8 * TOPIC_LIMIT));
		this.browser.type("filter-destination", TOPIC);
		this.browser.select("filter-status", "DEAD");
		this.browser.type("filter-key", run + "-unwanted");
		this.browser.click("search");
		this.browser.openResult(unwanted.id().toString());
		this.browser.click("discard-event");
		this.browser.acceptConfirmation();
		this.browser.until((driver) -> this.browser.text("message").equals("discard: 1 event(s)"));
		this.browser.until((driver) -> !this.browser.element("detail").isDisplayed());
		assertThat(this.monitoring.find(unwanted.id(), false)).isNull();

		assertThat(output.getAll()).contains("Outbox console: 'operator' took action retry on DEAD event " + dead.id())
			.contains("Outbox console: 'operator' took action discard on event " + unwanted.id())
			.contains("Outbox console: 'operator' took action republish on PUBLISHED events matching {type=ParcelShipped, "
					+ "destination=" + TOPIC + ", from=");
	}

	@Test
	void anonymousUserReadsTheConsoleButHasNoActionAndIsRefusedOneForged() {
		StoredEvent dead = shipAndAwait("anonymous-" + UUID.randomUUID(), "x".repeat(8 * TOPIC_LIMIT));
		assertThat(dead.status()).isEqualTo(EventStatus.DEAD);

		this.browser.openConsole();
		assertThat(this.browser.text("user")).isEqualTo("anonymous");
		assertThat(this.browser.element("outbox-choice").isDisplayed()).as("one outbox, no choice").isFalse();
		assertThat(this.browser.text("actions-note")).isEqualTo("Sign in as an operator to act");
		this.browser.select("filter-status", "DEAD");
		this.browser.click("search");
		this.browser.openResult(dead.id().toString());
		assertThat(this.browser.text("detail-payload")).isEqualTo("(hidden)");
		assertThat(this.browser.actionButtons()).isEmpty();

		assertThat(this.browser.element("filter-key").isEnabled()).as("search by key, a hidden value").isFalse();

		assertThat(this.browser.forge("POST", "/" + dead.id(), Map.of())).isEqualTo(401);
		assertThat(this.browser.forge("POST", "", Map.of("action", "retry-dead"))).isEqualTo(401);
		assertThat(this.monitoring.find(dead.id(), false).status()).isEqualTo(EventStatus.DEAD);
	}

	@Test
	void userWithoutTheOperatorRoleSeesNoActionButtonAndIsRefusedForgedActions(CapturedOutput output) {
		StoredEvent dead = shipAndAwait("viewer-" + UUID.randomUUID(), "x".repeat(8 * TOPIC_LIMIT));
		assertThat(dead.status()).isEqualTo(EventStatus.DEAD);

		this.browser.signIn("viewer", "viewer-password");
		assertThat(this.browser.text("actions-note")).isEqualTo("User 'viewer' has none of the operator roles [OPERATOR]");
		this.browser.select("filter-status", "DEAD");
		this.browser.click("search");
		this.browser.openResult(dead.id().toString());
		assertThat(this.browser.text("detail-payload")).isEqualTo("(hidden)");
		assertThat(this.browser.text("detail-key")).isEqualTo("(hidden)");
		assertThat(this.browser.actionButtons()).isEmpty();

		assertThat(this.browser.forge("POST", "/" + dead.id(), Map.of())).isEqualTo(403);
		assertThat(this.browser.forge("DELETE", "/" + dead.id(), Map.of())).isEqualTo(403);
		assertThat(this.browser.forge("POST", "", Map.of("action", "republish", "target", REPLAY_TOPIC)))
			.isEqualTo(403);
		assertThat(this.monitoring.find(dead.id(), false).status()).isEqualTo(EventStatus.DEAD);
		assertThat(output.getAll()).contains("Outbox console: retry of DEAD event " + dead.id() + " refused to 'viewer'")
			.contains("Outbox console: discard of event " + dead.id() + " refused to 'viewer'");
	}

	/**
	 * Ships a parcel and waits until its event is published or DEAD.
	 */
	private StoredEvent shipAndAwait(String parcelId, String note) {
		this.parcels.ship(parcelId, note);
		EventQuery query = new EventQuery(null, null, null, parcelId, null, null, null, null);
		return await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.monitoring.find(query, 0, 1, false).stream().findFirst().orElse(null),
					(event) -> event != null && event.status() != EventStatus.PENDING);
	}

	private static List<Received> received(TopicRecorder recorder, String part) {
		return recorder.poll().stream().filter((record) -> record.value().contains(part)).toList();
	}

}
