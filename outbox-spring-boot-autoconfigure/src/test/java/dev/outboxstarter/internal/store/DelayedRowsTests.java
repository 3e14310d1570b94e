package dev.outboxstarter.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static dev.outboxstarter.testsupport.OutboxTestTable.ids;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delayed rows on real PostgreSQL, MariaDB and H2: not claimed before their time, not backlog while they
 * wait, and holding back the later rows of their key only when they were asked to.
 */
class DelayedRowsTests {

	private static final String TABLE = "outbox_delayed_it";

	private static final Duration HOUR = Duration.ofHours(1);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void delayedRowIsNotClaimedBeforeItsTimeAndIsClaimedOnceItHasCome(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		Instant before = outbox.databaseNow();
		CapturedEvent delayed = delayed(event("k"), Instant.now().plus(HOUR), false);
		outbox.insert(store, Duration.ZERO, delayed);

		assertThat(outbox.claimDueIds(store, 10)).isEmpty();
		StoredEvent stored = outbox.storedEvents().list(EventStatus.PENDING, 0, 10, false).get(0);
		assertThat(stored.deliverAt()).isNotNull().isAfterOrEqualTo(before.plus(HOUR));
		assertThat(stored.availableAt()).isAfterOrEqualTo(before.plus(HOUR));

		// Its time comes: two hours earlier, it was due an hour ago.
		outbox.jdbc().update("UPDATE " + TABLE + " SET deliver_at = deliver_at - " + hours(database, 2)
				+ ", available_at = available_at - " + hours(database, 2));
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(delayed.id());
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
		outbox.insert(store, Duration.ZERO, delayed(event("a"), Instant.now().plus(HOUR), false));
		// Now written four hours ago with a two hours' delay: due for two hours, not for four.
		outbox.jdbc().update("UPDATE " + TABLE + " SET deliver_at = deliver_at - " + hours(database, 3)
				+ ", available_at = available_at - " + hours(database, 3) + ", created_at = created_at - "
				+ hours(database, 4));

		BacklogReading due = outbox.storedEvents().readBacklog();
		assertThat(due.pending()).isOne();
		assertThat(due.scheduled()).isZero();
		assertThat(due.oldestPendingAge()).isBetween(Duration.ofMinutes(110), Duration.ofMinutes(130));
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

	private static CapturedEvent delayed(CapturedEvent event, Instant deliverAt, boolean holdsKey) {
		return new CapturedEvent(event.id(), event.aggregateType(), event.aggregateId(), event.eventType(),
				event.transport(), event.destination(), event.messageKey(), event.payload(), event.headers(), deliverAt,
				holdsKey);
	}

	/** A number of hours, as the database adds it to a timestamp. */
	private static String hours(TestDatabase database, int hours) {
		return switch (database) {
			case POSTGRESQL -> "INTERVAL '" + hours + " hours'";
			case MARIADB -> "INTERVAL " + hours + " HOUR";
			case H2 -> "INTERVAL '" + hours + "' HOUR";
		};
	}

}
