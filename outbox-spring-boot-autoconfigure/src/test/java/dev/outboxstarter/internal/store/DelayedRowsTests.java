package dev.outboxstarter.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.internal.store.OutboxStore.Relaying;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static dev.outboxstarter.testsupport.OutboxTestTable.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Delayed rows on real PostgreSQL, MariaDB and H2: not claimed before their time, not backlog while they
 * wait, and holding back the later rows of their key only when they were asked to.
 */
class DelayedRowsTests {

	private static final String TABLE = "outbox_delayed_it";

	private static final Duration HOUR = Duration.ofHours(1);

	/** How long a test waits for a short delay to pass. */
	private static final Duration SHORT = Duration.ofMillis(300);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void delayedRowIsNotClaimedBeforeItsTimeAndIsClaimedOnceItHasCome(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		Instant before = outbox.databaseNow();
		CapturedEvent delayed = delayed(event("k"), Instant.now().plus(SHORT), false);
		outbox.insert(store, Duration.ZERO, delayed);

		assertThat(outbox.claimDueIds(store, 10)).isEmpty();
		StoredEvent stored = outbox.storedEvents().list(EventStatus.PENDING, 0, 10, false).get(0);
		assertThat(stored.deliverAt()).isNotNull().isAfterOrEqualTo(before.plus(SHORT));
		assertThat(stored.availableAt()).isAfterOrEqualTo(before.plus(SHORT));

		await()
			.pollInterval(Duration.ofMillis(20))
			.atMost(Duration.ofSeconds(10))
			.until(() -> outbox.claimDueIds(store, 10), (claimed) -> claimed.equals(List.of(delayed.id())));
		assertThat(outbox.databaseNow()).isAfterOrEqualTo(stored.deliverAt());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void delayedRowWaitingForItsTimeIsScheduledNotBacklog(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		outbox.insert(store, Duration.ZERO, delayed(event("a"), Instant.now().plus(HOUR), false),
				delayed(event("b"), Instant.now().plus(HOUR), true));

		BacklogReading waiting = outbox.storedEvents().readBacklog();
		assertThat(waiting.pending()).isZero();
		assertThat(waiting.scheduled()).isEqualTo(2);
		assertThat(waiting.oldestPendingAge()).isZero();

		UUID undelayed = outbox.insert(store, Duration.ZERO, event("c")).get(0);
		BacklogReading withDue = outbox.storedEvents().readBacklog();
		assertThat(withDue.pending()).isOne();
		assertThat(withDue.scheduled()).isEqualTo(2);
		assertThat(withDue.oldestPendingCreatedAt()).isEqualTo(outbox.row(undelayed).createdAt());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void dueDelayedRowCountsItsAgeFromItsDeliveryTimeNotFromWhenItWasWritten(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		outbox.insert(store, Duration.ZERO, delayed(event("a"), Instant.now().plus(SHORT), false));
		// Written an hour ago with an hour's delay: due for as long as the short delay has passed.
		outbox.jdbc().update("UPDATE " + TABLE + " SET created_at = available_at - " + interval(database));
		await()
			.pollInterval(Duration.ofMillis(20))
			.atMost(Duration.ofSeconds(10))
			.until(() -> outbox.storedEvents().readBacklog().pending() == 1);

		BacklogReading due = outbox.storedEvents().readBacklog();
		assertThat(due.scheduled()).isZero();
		assertThat(due.oldestPendingAge()).isLessThan(Duration.ofMinutes(5));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void delayedRowHoldsNothingBackByDefault(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent delayed = delayed(event("key"), Instant.now().plus(HOUR), false);
		CapturedEvent later = event("key");
		outbox.insert(store, Duration.ZERO, delayed);
		outbox.insert(store, Duration.ZERO, later);

		assertThat(outbox.claimDueIds(store, 10)).containsExactly(later.id());
		ClaimedBatch captured = outbox.transactions().execute((status) -> store.claimCaptured(List.of(later)));
		assertThat(ids(captured)).containsExactly(later.id());
		assertThat(captured.heldBack()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void delayedRowThatHoldsItsKeyHoldsBackTheLaterRowsOfItsKeyOnly(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent delayed = delayed(event("key"), Instant.now().plus(HOUR), true);
		CapturedEvent later = event("key");
		CapturedEvent otherKey = event("other");
		outbox.insert(store, Duration.ZERO, delayed);
		outbox.insert(store, Duration.ZERO, later, otherKey);

		assertThat(outbox.claimDueIds(store, 10)).containsExactly(otherKey.id());
		ClaimedBatch captured = outbox.transactions().execute((status) -> store.claimCaptured(List.of(later)));
		assertThat(captured.heldBack()).containsExactly(later.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void cleanupLeavesADelayedEventWaitingForItsTimeHoweverOldItIs(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		UUID delayed = outbox.insert(store, Duration.ZERO, delayed(event("k"), Instant.now().plus(HOUR), false)).get(0);
		outbox.jdbc().update("UPDATE " + TABLE + " SET created_at = available_at - " + interval(database));

		assertThat(outbox.storedEvents().deletePublished(Duration.ZERO, 100)).isZero();
		assertThat(outbox.storedEvents().deleteDead(Duration.ZERO, 100)).isZero();
		assertThat(outbox.row(delayed).status()).isEqualTo("PENDING");
	}

	@ParameterizedTest
	@EnumSource(names = { "POSTGRESQL", "MARIADB" })
	void delayedEventIsRefusedWhenTheLogRelayPublishesEveryRowAsItIsWritten(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore logRelayed = new OutboxStore(outbox.dataSource(), outbox.vendor(),
				outbox.statements(KeyOrdering.PER_KEY), new JsonMapper(), Relaying.FROM_LOG, null);
		CapturedEvent delayed = delayed(event("k"), Instant.now().plus(HOUR), false);

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> logRelayed.insert(List.of(event("other"), delayed), Duration.ZERO))
			.withMessageContaining("Event 'OrderPlaced' to orders is delayed")
			.withMessageContaining("outbox.relay.mode=polling");
		assertThat(outbox.jdbc().queryForObject("SELECT COUNT(*) FROM " + TABLE, Integer.class)).isZero();
	}

	private static CapturedEvent delayed(CapturedEvent event, Instant deliverAt, boolean holdsKey) {
		return new CapturedEvent(event.id(), event.aggregateType(), event.aggregateId(), event.eventType(),
				event.transport(), event.destination(), event.messageKey(), event.payload(), event.headers(), deliverAt,
				holdsKey);
	}

	/** An hour, as the database adds it to a timestamp. */
	private static String interval(TestDatabase database) {
		return switch (database) {
			case POSTGRESQL -> "INTERVAL '1 hour'";
			case MARIADB -> "INTERVAL 1 HOUR";
			case H2 -> "INTERVAL '1' HOUR";
		};
	}

}
