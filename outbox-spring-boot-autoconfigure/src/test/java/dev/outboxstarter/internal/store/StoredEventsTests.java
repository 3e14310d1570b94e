package dev.outboxstarter.internal.store;

import java.time.Duration;
import java.util.List;

import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What operators read and do through the stored events, on real PostgreSQL, MariaDB and H2: the
 * backlog reading, counts by status, pages of events with and without the values that may hold
 * personal data, putting DEAD events back, and discarding.
 */
public class StoredEventsTests {

	private static final String TABLE = "outbox_inspection_it";

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void backlogReadingCountsPendingAndDeadRowsAndAgesTheOldestPendingOne(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		StoredEvents storedEvents = outbox.storedEvents();
		BacklogReading empty = storedEvents.readBacklog();
		assertThat(empty.pending()).isZero();
		assertThat(empty.dead()).isZero();
		assertThat(empty.oldestPendingCreatedAt()).isNull();
		assertThat(empty.oldestPendingAge()).isZero();

		CapturedEvent oldest = event("a");
		CapturedEvent dead = event("b");
		outbox.insert(store, Duration.ZERO, oldest, dead, event("c"), event("d"));
		outbox.jdbc().update("UPDATE " + TABLE + " SET created_at = created_at - INTERVAL '1' HOUR WHERE id = ?",
				outbox.vendor().idParameter(oldest.id()));
		markDead(outbox, dead);

		BacklogReading reading = storedEvents.readBacklog();
		assertThat(reading.pending()).isEqualTo(3);
		assertThat(reading.dead()).isEqualTo(1);
		assertThat(reading.oldestPendingAge()).isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsAreCountedByStatusAndTransportAndListedInPagesOldestFirst(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		StoredEvents storedEvents = outbox.storedEvents();
		CapturedEvent first = event("kafka", "orders", "k1");
		CapturedEvent second = event("kafka", "orders", "k2");
		CapturedEvent third = event("rabbit", "x/y", "k3");
		CapturedEvent dead = event("rabbit", "x/y", "k4");
		outbox.insert(store, Duration.ZERO, first, second, third, dead);
		markDead(outbox, dead);

		assertThat(storedEvents.countByStatus()).containsExactlyInAnyOrder(
				new EventCount(EventStatus.PENDING, "kafka", 2),
				new EventCount(EventStatus.PENDING, "rabbit", 1), new EventCount(EventStatus.DEAD, "rabbit", 1));

		List<StoredEvent> page0 = storedEvents.list(EventStatus.PENDING, 0, 2, false);
		List<StoredEvent> page1 = storedEvents.list(EventStatus.PENDING, 2, 2, false);
		assertThat(page0).extracting(StoredEvent::id).containsExactly(first.id(), second.id());
		assertThat(page1).extracting(StoredEvent::id).containsExactly(third.id());
		assertThat(page0).allSatisfy((event) -> assertThat(event.payload()).isNull());

		StoredEvent listedDead = storedEvents.list(EventStatus.DEAD, 0, 10, true).get(0);
		assertThat(listedDead.id()).isEqualTo(dead.id());
		assertThat(listedDead.key()).isEqualTo("k4");
		assertThat(listedDead.destination()).isEqualTo("x/y");
		assertThat(listedDead.attempts()).isEqualTo(1);
		assertThat(listedDead.lastError()).isEqualTo("poison");
		assertThat(listedDead.payload()).isEqualTo(dead.payload());
		assertThat(listedDead.publishedAt()).isNull();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void valuesThatMayHoldPersonalDataAreListedOnlyWhenAskedFor(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		StoredEvents storedEvents = outbox.storedEvents();
		CapturedEvent dead = event("kafka", "orders", "ada@example.com");
		outbox.insert(store, Duration.ZERO, dead);
		markDead(outbox, dead);

		StoredEvent hidden = storedEvents.list(EventStatus.DEAD, 0, 10, false).get(0);
		assertThat(hidden.key()).as("message key").isNull();
		assertThat(hidden.aggregateId()).as("aggregate id").isNull();
		assertThat(hidden.lastError()).as("last error").isNull();
		assertThat(hidden.payload()).as("payload").isNull();
		assertThat(hidden.headers()).as("headers").isNull();
		assertThat(hidden.id()).isEqualTo(dead.id());
		assertThat(hidden.aggregateType()).isEqualTo("Order");
		assertThat(hidden.attempts()).isEqualTo(1);

		StoredEvent shown = storedEvents.list(EventStatus.DEAD, 0, 10, true).get(0);
		assertThat(shown.key()).isEqualTo("ada@example.com");
		assertThat(shown.aggregateId()).isEqualTo("ada@example.com");
		assertThat(shown.lastError()).isEqualTo("poison");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void retryAllDeadPutsBackTheDeadRowsOfATypeOrAll(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		StoredEvents storedEvents = outbox.storedEvents();
		CapturedEvent first = event("K1");
		CapturedEvent second = event("K2");
		outbox.insert(store, Duration.ZERO, first, second);
		outbox.transactions()
			.executeWithoutResult((status) -> store.markFailed(List.of(new FailedAttempt(first.id(), true, Duration.ZERO, "x"),
					new FailedAttempt(second.id(), true, Duration.ZERO, "y"))));

		assertThat(storedEvents.retryAllDead("SomethingElse")).isZero();
		assertThat(storedEvents.retryAllDead("OrderPlaced")).isEqualTo(2);
		assertThat(storedEvents.retryAllDead(null)).isZero();
		assertThat(outbox.row(first.id()).status()).isEqualTo("PENDING");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void discardDeletesPendingAndDeadRowsButNeverPublishedOnes(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		StoredEvents storedEvents = outbox.storedEvents();
		CapturedEvent pending = event("a");
		CapturedEvent dead = event("b");
		CapturedEvent published = event("c");
		outbox.insert(store, Duration.ZERO, pending, dead, published);
		markDead(outbox, dead);
		outbox.transactions().executeWithoutResult((status) -> store.markPublished(List.of(published.id())));

		assertThat(storedEvents.discard(pending.id())).isTrue();
		assertThat(storedEvents.discard(dead.id())).isTrue();
		assertThat(storedEvents.discard(published.id())).isFalse();
		assertThat(outbox.jdbc().queryForList("SELECT status FROM " + TABLE, String.class)).containsExactly("PUBLISHED");
	}

	private static void markDead(OutboxTestTable outbox, CapturedEvent event) {
		outbox.transactions()
			.executeWithoutResult((status) -> outbox.store()
				.markFailed(List.of(new FailedAttempt(event.id(), true, Duration.ZERO, "poison"))));
	}

}
