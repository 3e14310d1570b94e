package dev.outboxstarter.logrelay;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.outboxstarter.logrelay.LogRelayTestApplication.Instance;
import dev.outboxstarter.logrelay.LogRelayTestApplication.Switched;
import dev.outboxstarter.logrelay.RecordedMessages.Message;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The switch procedure of docs/log-relay.md, both ways, with events pending at the switch: every event
 * arrives; events published by both relays during the overlap are counted as duplicates.
 */
class LogRelaySwitchIntegrationTests {

	private static final String TABLE = "outbox_log_relay_switch";

	private static final String TOPIC = "log-relay-switch";

	private static final Pattern N = Pattern.compile("\"n\":(\\d+)");

	@BeforeAll
	static void createTableAndTopic() {
		ReplicationSlots.dropLeftovers();
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
	}

	@AfterAll
	static void dropTable() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Test
	void switchingFromPollingToTheLogPublishesTheRowsPendingAtTheSwitch() {
		String name = ReplicationSlots.newName("to_log");
		try (ConnectWorker worker = ConnectWorker.prepare(TestKafka.bootstrapServers(), ReplicationSlots.database(),
				TABLE, name)) {
			// Events waiting in the table when the switch begins, as during a broker outage.
			try (Instance stalled = LogRelayTestApplication.start(TABLE, "outbox.fast-path.enabled=false",
					"outbox.relay.enabled=false")) {
				write(stalled, 0, 30);
			}
			assertThat(ReplicationSlots.pendingRows(TABLE)).isEqualTo(30);
			// 1. The connector starts reading the log from now (snapshot.mode=no_data).
			worker.start(() -> ReplicationSlots.isActive(name));
			// 2. The polling instances drain what was pending before; what they write meanwhile goes both ways.
			try (Instance polling = LogRelayTestApplication.start(TABLE, "outbox.relay.mode=polling")) {
				write(polling, 30, 60);
				await("the drain before the switch").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> ReplicationSlots.pendingRows(TABLE) == 0);
			}
			// 3. The instances restart in log mode.
			try (Instance log = LogRelayTestApplication.start(TABLE, "outbox.relay.mode=log")) {
				write(log, 60, 90);
			}
			assertAllArrive(0, 90);
		}
		finally {
			ReplicationSlots.drop(name);
		}
	}

	@Test
	void switchingFromTheLogBackToPollingPublishesWhatTheConnectorHadNotReadYet() {
		String name = ReplicationSlots.newName("to_polling");
		try (ConnectWorker worker = ConnectWorker.prepare(TestKafka.bootstrapServers(), ReplicationSlots.database(),
				TABLE, name)) {
			String lastLogWrite;
			try (Instance log = LogRelayTestApplication.start(TABLE, "outbox.relay.mode=log")) {
				worker.start(() -> ReplicationSlots.isActive(name));
				write(log, 1000, 1030);
				// The connector falls behind (here: its worker is down): these are only in the log.
				worker.stop();
				write(log, 1030, 1060);
				lastLogWrite = ReplicationSlots.currentLsn();
			}
			// 1. The instances restart in polling mode and publish what they write from now on.
			try (Instance polling = LogRelayTestApplication.start(TABLE, "outbox.relay.mode=polling")) {
				write(polling, 1060, 1090);
				// 2. The connector stays until it has read the log past the last log-mode write.
				worker.start(() -> ReplicationSlots.isActive(name));
				await("the connector past the last log-mode write").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> ReplicationSlots.confirmedUpTo(name, lastLogWrite));
				assertAllArrive(1000, 1090);
			}
		}
		finally {
			// 3. Then the connector is deleted and its slot dropped.
			ReplicationSlots.drop(name);
		}
	}

	private static void write(Instance instance, int from, int to) {
		for (int n = from; n < to; n++) {
			int event = n;
			instance.inTransaction((outbox) -> outbox.publish("Switch", "s-" + (event % 4), new Switched(event)));
		}
	}

	private static void assertAllArrive(int from, int to) {
		Set<Integer> expected = IntStream.range(from, to).boxed().collect(Collectors.toSet());
		try (RecordedMessages topic = new RecordedMessages(TestKafka.bootstrapServers(), TOPIC)) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> new HashSet<>(numbers(topic.poll(), from, to)).containsAll(expected));
			List<Integer> received = numbers(topic.poll(), from, to);
			System.out.println("Switch test " + from + ".." + to + ": " + expected.size() + " events, 0 lost, "
					+ (received.size() - expected.size()) + " duplicates");
			assertThat(new HashSet<>(received)).isEqualTo(expected);
		}
	}

	private static List<Integer> numbers(List<Message> messages, int from, int to) {
		return messages.stream().map((message) -> {
			Matcher matcher = N.matcher(message.payload());
			assertThat(matcher.find()).as(message.payload()).isTrue();
			return Integer.parseInt(matcher.group(1));
		}).filter((n) -> n >= from && n < to).toList();
	}

}
