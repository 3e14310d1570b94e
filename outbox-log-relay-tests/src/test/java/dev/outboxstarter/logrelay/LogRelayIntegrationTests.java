package dev.outboxstarter.logrelay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.outboxstarter.logrelay.LogRelayTestApplication.Arrival;
import dev.outboxstarter.logrelay.LogRelayTestApplication.BinaryCloudTwin;
import dev.outboxstarter.logrelay.LogRelayTestApplication.BinaryTwin;
import dev.outboxstarter.logrelay.LogRelayTestApplication.Instance;
import dev.outboxstarter.logrelay.LogRelayTestApplication.JsonCloudTwin;
import dev.outboxstarter.logrelay.LogRelayTestApplication.KeyedStep;
import dev.outboxstarter.logrelay.LogRelayTestApplication.Survivor;
import dev.outboxstarter.logrelay.LogRelayTestApplication.Twin;
import dev.outboxstarter.logrelay.RecordedMessages.Message;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The log relay end to end: an application in {@code outbox.relay.mode=log} on the local PostgreSQL
 * (wal_level=logical), a real Kafka Connect worker running Debezium's PostgreSQL connector with the
 * shipped {@code connectors/postgresql.json} and the outbox's transform, and a real Kafka broker. What
 * a consumer receives is checked as raw bytes.
 */
class LogRelayIntegrationTests {

	private static final String TABLE = "outbox_log_relay";

	private static final Pattern N = Pattern.compile("\"n\":(\\d+)");

	private static String name;

	private static Instance logInstance;

	private static ConnectWorker worker;

	@BeforeAll
	static void startInstanceAndConnectWorker() {
		ReplicationSlots.dropLeftovers();
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic("log-relay-arrivals", 1);
		TestKafka.createTopic("log-relay-order", 3);
		TestKafka.createTopic("log-relay-twins", 1);
		TestKafka.createTopic("log-relay-kill", 3);
		// The instance creates the table, which the connector's publication names.
		logInstance = LogRelayTestApplication.start(TABLE, "outbox.relay.mode=log");
		name = ReplicationSlots.newName("main");
		worker = ConnectWorker.prepare(TestKafka.bootstrapServers(), ReplicationSlots.database(), TABLE, name);
		worker.start(() -> ReplicationSlots.isActive(name));
	}

	@AfterAll
	static void stopAndDropTheSlot() {
		if (worker != null) {
			worker.close();
		}
		if (logInstance != null) {
			logInstance.close();
		}
		if (name != null) {
			ReplicationSlots.drop(name);
		}
	}

	@Test
	void everyCommittedEventArrivesAndNoneOfARolledBackTransaction() {
		Set<Integer> committed = new HashSet<>();
		for (int n = 0; n < 60; n++) {
			int event = n;
			if (n % 3 == 0) {
				logInstance.inRolledBackTransaction((outbox) -> outbox.publish("Account", "a-" + (event % 5),
						new Arrival(event)));
			}
			else {
				logInstance.inTransaction((outbox) -> outbox.publish("Account", "a-" + (event % 5), new Arrival(event)));
				committed.add(n);
			}
		}
		try (RecordedMessages topic = new RecordedMessages(TestKafka.bootstrapServers(), "log-relay-arrivals")) {
			// One partition: once the last committed event is there, everything committed before it is.
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> numbers(topic.poll()).contains(59));
			assertThat(numbers(topic.poll())).containsExactlyInAnyOrderElementsOf(committed);
		}
		assertThat(ReplicationSlots.pendingRows(TABLE)).isZero();
	}

	@Test
	void eachKeysEventsArriveInCommitOrder() throws Exception {
		int keys = 4;
		int perKey = 40;
		ExecutorService writers = Executors.newFixedThreadPool(keys);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int k = 0; k < keys; k++) {
				String key = "k" + k;
				done.add(writers.submit(() -> {
					for (int n = 0; n < perKey; n += 2) {
						int first = n;
						// Some transactions carry two events of the key, some one.
						if (n % 4 == 0) {
							logInstance.inTransaction((outbox) -> {
								outbox.publish("Step", key, new KeyedStep(key, first));
								outbox.publish("Step", key, new KeyedStep(key, first + 1));
							});
						}
						else {
							logInstance.inTransaction((outbox) -> outbox.publish("Step", key, new KeyedStep(key, first)));
							logInstance.inTransaction(
									(outbox) -> outbox.publish("Step", key, new KeyedStep(key, first + 1)));
						}
					}
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
		}
		finally {
			writers.shutdown();
		}
		try (RecordedMessages topic = new RecordedMessages(TestKafka.bootstrapServers(), "log-relay-order")) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll().size() >= keys * perKey);
			Map<String, List<Integer>> byKey = new LinkedHashMap<>();
			for (Message message : topic.poll()) {
				byKey.computeIfAbsent(text(message.key()), (key) -> new ArrayList<>()).add(number(message));
			}
			assertThat(byKey).hasSize(keys);
			List<Integer> expected = java.util.stream.IntStream.range(0, perKey).boxed().toList();
			byKey.forEach((key, numbers) -> assertThat(numbers).as(key).containsExactlyElementsOf(expected));
		}
	}

	@Test
	void keyPayloadAndHeadersAreByteIdenticalToWhatThePollingRelaySendsForTheSameEvent() {
		// A polling instance publishes its rows itself, and the connector reads the same inserts from
		// the log: every event reaches the topic twice, once by each relay.
		try (Instance pollingInstance = LogRelayTestApplication.start(TABLE, "outbox.relay.mode=polling")) {
			for (int n = 0; n < 10; n++) {
				int event = n;
				pollingInstance.inTransaction((outbox) -> {
					outbox.publish("Order", "o-" + event, new Twin(event, "ünïcödé ✓ \"quoted\""));
					outbox.publish(new Twin(100 + event, "no aggregate, no key"));
					outbox.publish("Parcel", "p-" + event, new BinaryTwin(200 + event));
					outbox.publish("Parcel", "p-" + event, new BinaryCloudTwin(300 + event));
					outbox.publish("Parcel", "p-" + event, new JsonCloudTwin(400 + event));
				});
			}
			try (RecordedMessages topic = new RecordedMessages(TestKafka.bootstrapServers(), "log-relay-twins")) {
				await().atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(50))
					.until(() -> topic.poll().size() >= 100);
				Map<String, List<Message>> byId = topic.poll()
					.stream()
					.collect(Collectors.groupingBy(Message::messageId));
				assertThat(byId).hasSize(50);
				byId.forEach((id, copies) -> {
					assertThat(copies).as(id).hasSize(2);
					assertThat(copies.get(0)).as(id).isEqualTo(copies.get(1));
				});
				List<Message> firsts = byId.values().stream().map((copies) -> copies.get(0)).toList();
				List<String> outboxHeaders = List.of("outbox-message-id", "outbox-event-type", "outbox-aggregate-type",
						"outbox-aggregate-id", "outbox-occurred-at");
				List<String> cloudEventHeaders = List.of("ce_id", "ce_source", "ce_specversion", "ce_type",
						"ce_subject", "ce_time");
				assertHeaders(keyed(firsts, "Twin"), List.of("traceparent", "tenant"), outboxHeaders);
				Message binary = keyed(firsts, "BinaryTwin");
				assertThat(Base64.getDecoder().decode(binary.value())).startsWith(0).contains(0xff);
				assertHeaders(binary, List.of("traceparent", "tenant", "outbox-payload-schema"),
						concat(outboxHeaders, List.of("content-type")));
				assertHeaders(keyed(firsts, "BinaryCloudTwin"), List.of("traceparent", "tenant", "outbox-payload-schema"),
						concat(outboxHeaders, cloudEventHeaders, List.of("ce_dataschema", "content-type")));
				assertHeaders(keyed(firsts, "JsonCloudTwin"), List.of("traceparent", "tenant"),
						concat(outboxHeaders, cloudEventHeaders, List.of("content-type")));
			}
		}
	}

	/**
	 * The first message of an event type that has a key.
	 */
	private static Message keyed(List<Message> messages, String eventType) {
		String header = "outbox-event-type="
				+ Base64.getEncoder().encodeToString(eventType.getBytes(StandardCharsets.UTF_8));
		return messages.stream()
			.filter((message) -> message.headers().contains(header) && !"null".equals(message.key()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No keyed " + eventType + " among " + messages));
	}

	/**
	 * Asserts a message's header names: the stored ones first, in the order of the map they were stored
	 * from, then the outbox's own in the transport's order.
	 */
	private static void assertHeaders(Message message, List<String> stored, List<String> then) {
		List<String> names = message.headers().stream().map((header) -> header.substring(0, header.indexOf('=')))
			.toList();
		assertThat(names).hasSize(stored.size() + then.size());
		assertThat(names.subList(0, stored.size())).containsExactlyInAnyOrderElementsOf(stored);
		assertThat(names.subList(stored.size(), names.size())).containsExactlyElementsOf(then);
	}

	@SafeVarargs
	private static List<String> concat(List<String>... lists) {
		return Arrays.stream(lists).flatMap(List::stream).toList();
	}

	@Test
	void nothingIsLostWhenTheConnectWorkerIsKilledAndStartedAgain() throws Exception {
		int events = 600;
		ExecutorService writer = Executors.newSingleThreadExecutor();
		try (RecordedMessages topic = new RecordedMessages(TestKafka.bootstrapServers(), "log-relay-kill")) {
			Future<?> written = writer.submit(() -> {
				for (int n = 0; n < events; n++) {
					int event = n;
					logInstance.inTransaction((outbox) -> outbox.publish("Meter", "m-" + (event % 3),
							new Survivor(event)));
				}
			});
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> topic.poll().size() >= events / 4);
			worker.kill();
			int receivedBeforeKill = topic.poll().size();
			worker.start(() -> ReplicationSlots.isActive(name));
			written.get();
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> new HashSet<>(numbers(topic.poll())).size() == events);
			List<Integer> received = numbers(topic.poll());
			int duplicates = received.size() - events;
			System.out.println("Log relay across a Connect worker kill -9: " + events + " events, "
					+ receivedBeforeKill + " received before the kill, 0 lost, " + duplicates + " duplicates");
			assertThat(new HashSet<>(received)).hasSize(events);
		}
		finally {
			writer.shutdownNow();
		}
	}

	private static List<Integer> numbers(List<Message> messages) {
		return messages.stream().map(LogRelayIntegrationTests::number).toList();
	}

	private static int number(Message message) {
		Matcher matcher = N.matcher(message.payload());
		assertThat(matcher.find()).as(message.payload()).isTrue();
		return Integer.parseInt(matcher.group(1));
	}

	private static String text(String base64) {
		return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
	}

}
