package dev.outboxstarter.logrelay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outboxstarter.Outbox;
import dev.outboxstarter.logrelay.LogRelayTestApplication.Entry;
import dev.outboxstarter.logrelay.LogRelayTestApplication.Instance;
import dev.outboxstarter.logrelay.RecordedMessages.Message;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The log relay with several databases, as docs/several-databases.md describes it: an application in
 * {@code outbox.relay.mode=log} with two PostgreSQL databases, each with a transaction manager and an
 * outbox table of its own, and one Debezium connector per database (its own name, replication slot,
 * publication and topic prefix, each reading its database's outbox table), both on one Kafka Connect
 * worker. Both databases' events go to one topic with the same keys, and a consumer receives every
 * committed event of each database once, in that database's commit order per key.
 */
class TwoDatabasesLogRelayIntegrationTests {

	private static final String TABLE = "outbox_log_relay_two";

	private static final String TOPIC = "log-relay-two-databases";

	/** What the payload says of the primary database's events. */
	private static final String FIRST = "first";

	/** What the payload says of the second database's events. */
	private static final String SECOND = "second";

	private static final ObjectMapper json = new ObjectMapper();

	private static String secondDatabase;

	private static String firstName;

	private static String secondName;

	private static Instance instance;

	private static ConnectWorker worker;

	@BeforeAll
	static void startInstanceAndConnectWorker() {
		// The second database sits on the tests' server beside the first: the slots' names share one
		// namespace there, the publications each their database's.
		secondDatabase = ReplicationSlots.database() + "b";
		ReplicationSlots.createDatabase(secondDatabase);
		ReplicationSlots.dropLeftovers();
		ReplicationSlots.dropLeftovers(secondDatabase);
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		ReplicationSlots.dropTable(secondDatabase, TABLE);
		TestKafka.createTopic(TOPIC, 3);
		// The instance creates both tables, each in its database, which the connectors' publications name.
		instance = LogRelayTestApplication.start(new Class<?>[] { SecondDatabase.class }, TABLE,
				"outbox.relay.mode=log", "second.datasource.url=" + ReplicationSlots.url(secondDatabase),
				"second.datasource.username=" + TestDatabase.POSTGRESQL.username(),
				"second.datasource.password=" + TestDatabase.POSTGRESQL.password());
		firstName = ReplicationSlots.newName("first");
		secondName = ReplicationSlots.newName("second");
		Map<String, String> connectors = new LinkedHashMap<>();
		connectors.put(firstName, ReplicationSlots.database());
		connectors.put(secondName, secondDatabase);
		worker = ConnectWorker.prepare(TestKafka.bootstrapServers(), TABLE, connectors);
		worker.start(() -> ReplicationSlots.isActive(firstName) && ReplicationSlots.isActive(secondName));
	}

	@AfterAll
	static void stopAndDropTheSlots() {
		if (worker != null) {
			worker.close();
		}
		if (instance != null) {
			instance.close();
		}
		if (firstName != null) {
			ReplicationSlots.drop(firstName);
		}
		if (secondName != null) {
			ReplicationSlots.drop(secondDatabase, secondName);
		}
	}

	@Test
	void everyCommittedEventOfBothDatabasesArrivesOnceInEachDatabasesOrderPerKey() throws Exception {
		List<String> keys = List.of("ordered-k0", "ordered-k1", "ordered-k2", "ordered-k3");
		int perKey = 12;
		List<Entry> expected = new ArrayList<>();
		for (String database : List.of(FIRST, SECOND)) {
			keys.forEach((key) -> IntStream.range(0, perKey).forEach((n) -> expected.add(new Entry(database, key, n))));
		}
		// Both databases are written at once, with the same keys; in each, some transactions carry two
		// events of a key, some one, and some roll back, each followed by a commit of its key.
		ExecutorService writers = Executors.newFixedThreadPool(2);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (String database : List.of(FIRST, SECOND)) {
				done.add(writers.submit(() -> {
					for (int n = 0; n < perKey; n += 2) {
						int first = n;
						for (String key : keys) {
							if (n % 6 == 0) {
								inRolledBackTransaction(database,
										(outbox) -> outbox.publish("Ledger", key, new Entry(database, key, -1 - first)));
							}
							if (n % 4 == 0) {
								inTransaction(database, (outbox) -> {
									outbox.publish("Ledger", key, new Entry(database, key, first));
									outbox.publish("Ledger", key, new Entry(database, key, first + 1));
								});
							}
							else {
								inTransaction(database,
										(outbox) -> outbox.publish("Ledger", key, new Entry(database, key, first)));
								inTransaction(database,
										(outbox) -> outbox.publish("Ledger", key, new Entry(database, key, first + 1)));
							}
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
		List<Message> received = awaitReceived(keys, expected);
		assertThat(received).extracting(TwoDatabasesLogRelayIntegrationTests::entry)
			.containsExactlyInAnyOrderElementsOf(expected);
		assertThat(received).extracting(Message::messageId).doesNotContainNull().doesNotHaveDuplicates();
		Map<String, List<Integer>> byDatabaseAndKey = new LinkedHashMap<>();
		for (Message message : received) {
			Entry entry = entry(message);
			byDatabaseAndKey.computeIfAbsent(entry.database() + "/" + entry.key(), (stream) -> new ArrayList<>())
				.add(entry.n());
		}
		assertThat(byDatabaseAndKey).hasSize(2 * keys.size());
		List<Integer> inOrder = IntStream.range(0, perKey).boxed().toList();
		byDatabaseAndKey.forEach((stream, numbers) -> assertThat(numbers).as(stream).isEqualTo(inOrder));
		received.forEach(TwoDatabasesLogRelayIntegrationTests::assertMessageOfItsEvent);
		assertThat(ReplicationSlots.rows(ReplicationSlots.database(), TABLE)).as("the first database's table")
			.isZero();
		assertThat(ReplicationSlots.rows(secondDatabase, TABLE)).as("the second database's table").isZero();
	}

	@Test
	void aRollbackInOneDatabasePublishesNothingWhileTheOtherDatabasesEventsGoOut() {
		String key = "rollback-k";
		inRolledBackTransaction(SECOND, (outbox) -> outbox.publish("Ledger", key, new Entry(SECOND, key, 0)));
		inTransaction(FIRST, (outbox) -> outbox.publish("Ledger", key, new Entry(FIRST, key, 0)));
		// Committed after the rollback in the same database: its connector publishes anything of the
		// rollback before it.
		inTransaction(SECOND, (outbox) -> outbox.publish("Ledger", key, new Entry(SECOND, key, 1)));
		inRolledBackTransaction(FIRST, (outbox) -> outbox.publish("Ledger", key, new Entry(FIRST, key, 1)));
		inTransaction(FIRST, (outbox) -> outbox.publish("Ledger", key, new Entry(FIRST, key, 2)));
		List<Entry> expected = List.of(new Entry(FIRST, key, 0), new Entry(SECOND, key, 1), new Entry(FIRST, key, 2));
		List<Message> received = awaitReceived(List.of(key), expected);
		assertThat(received).extracting(TwoDatabasesLogRelayIntegrationTests::entry)
			.containsExactlyInAnyOrderElementsOf(expected);
		received.forEach(TwoDatabasesLogRelayIntegrationTests::assertMessageOfItsEvent);
	}

	private static void inTransaction(String database, Consumer<Outbox> work) {
		if (FIRST.equals(database)) {
			instance.inTransaction(work);
		}
		else {
			instance.inTransaction(SecondDatabase.TRANSACTION_MANAGER, work);
		}
	}

	private static void inRolledBackTransaction(String database, Consumer<Outbox> work) {
		if (FIRST.equals(database)) {
			instance.inRolledBackTransaction(work);
		}
		else {
			instance.inRolledBackTransaction(SecondDatabase.TRANSACTION_MANAGER, work);
		}
	}

	/**
	 * Waits until the topic holds every expected event, then reads it to its end: anything published
	 * besides them (a duplicate, an event of a rolled-back transaction) was published by its database's
	 * connector before that database's last expected event of the same key, in the same partition.
	 * @return every message of the keys, in the order each partition delivered it
	 */
	private static List<Message> awaitReceived(List<String> keys, List<Entry> expected) {
		try (RecordedMessages topic = new RecordedMessages(TestKafka.bootstrapServers(), TOPIC)) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> new HashSet<>(entries(topic.poll(), keys)).containsAll(expected));
			return topic.pollToEnd().stream().filter((message) -> keys.contains(entry(message).key())).toList();
		}
	}

	private static List<Entry> entries(List<Message> messages, List<String> keys) {
		return messages.stream()
			.map(TwoDatabasesLogRelayIntegrationTests::entry)
			.filter((entry) -> keys.contains(entry.key()))
			.toList();
	}

	/**
	 * Asserts that a message is the starter's for its event: the key, the payload's bytes, the stored
	 * headers, then the outbox's own, in the transport's order.
	 */
	private static void assertMessageOfItsEvent(Message message) {
		Entry entry = entry(message);
		assertThat(text(message.key())).isEqualTo(entry.key());
		assertThat(message.payload()).isEqualTo(
				"{\"database\":\"" + entry.database() + "\",\"key\":\"" + entry.key() + "\",\"n\":" + entry.n() + "}");
		List<String> names = message.headers()
			.stream()
			.map((header) -> header.substring(0, header.indexOf('=')))
			.toList();
		assertThat(names.subList(0, 2)).containsExactlyInAnyOrder("traceparent", "tenant");
		assertThat(names.subList(2, names.size())).containsExactly("outbox-message-id", "outbox-event-type",
				"outbox-aggregate-type", "outbox-aggregate-id", "outbox-occurred-at");
		assertThat(header(message, "traceparent")).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
		assertThat(header(message, "tenant")).isEqualTo("acme");
		assertThat(header(message, "outbox-event-type")).isEqualTo("Entry");
		assertThat(header(message, "outbox-aggregate-type")).isEqualTo("Ledger");
		assertThat(header(message, "outbox-aggregate-id")).isEqualTo(entry.key());
	}

	private static String header(Message message, String name) {
		return message.headers()
			.stream()
			.filter((header) -> header.startsWith(name + "="))
			.map((header) -> text(header.substring(name.length() + 1)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No header " + name + " in " + message.headers()));
	}

	private static Entry entry(Message message) {
		try {
			JsonNode payload = json.readTree(message.payload());
			return new Entry(payload.path("database").asText(), payload.path("key").asText(),
					payload.path("n").asInt());
		}
		catch (Exception ex) {
			throw new AssertionError("Not an entry: " + message.payload(), ex);
		}
	}

	private static String text(String base64) {
		return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
	}

}
