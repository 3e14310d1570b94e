package dev.outboxstarter.internal.housekeeping;

import java.time.Duration;
import java.util.List;

import dev.outboxstarter.internal.store.FailedAttempt;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention: published rows past it are deleted in bounded batches, DEAD rows only when a retention is
 * set for them, pending rows never.
 */
public class OutboxCleanupTests {

	private static final String TABLE = "outbox_cleanup_it";

	private static final Duration HOUR = Duration.ofHours(1);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void publishedRowsPastTheirRetentionAreDeletedInBatchesAndNothingElse(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		List<CapturedEvent> published = List.of(event("A"), event("B"), event("C"), event("D"), event("E"));
		CapturedEvent pending = event("F");
		CapturedEvent dead = event("G");
		outbox.insert(store, Duration.ZERO, published.toArray(CapturedEvent[]::new));
		outbox.insert(store, Duration.ZERO, pending, dead);
		outbox.transactions().executeWithoutResult((status) -> {
			store.markPublished(published.stream().map(CapturedEvent::id).toList());
			store.markFailed(List.of(new FailedAttempt(dead.id(), true, Duration.ZERO, "poison")));
		});

		assertThat(cleanup(outbox, HOUR, null).clean()).as("nothing is old enough").isZero();
		assertThat(outbox.storedEvents().deletePublished(Duration.ZERO, 2)).as("one bounded batch").isEqualTo(2);
		assertThat(cleanup(outbox, Duration.ZERO, null).clean()).isEqualTo(3);

		assertThat(outbox.jdbc().queryForList("SELECT status FROM " + TABLE, String.class))
			.containsExactlyInAnyOrder("PENDING", "DEAD");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void deadRowsAreDeletedOnlyWhenTheyHaveARetention(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent pending = event("F");
		CapturedEvent dead = event("G");
		outbox.insert(store, Duration.ZERO, pending, dead);
		outbox.transactions()
			.executeWithoutResult((status) -> store
				.markFailed(List.of(new FailedAttempt(dead.id(), true, Duration.ZERO, "poison"))));

		assertThat(cleanup(outbox, Duration.ZERO, HOUR).clean()).isZero();
		assertThat(cleanup(outbox, Duration.ZERO, Duration.ZERO).clean()).isEqualTo(1);

		assertThat(outbox.jdbc().queryForList("SELECT status FROM " + TABLE, String.class)).containsExactly("PENDING");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void deadRowIsKeptForItsRetentionFromWhenItBecameDeadNotFromWhenItWasWritten(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent dead = event("G");
		outbox.insert(store, Duration.ZERO, dead);
		// Written two days ago, retried since, and DEAD now.
		outbox.jdbc().update("UPDATE " + TABLE + " SET created_at = created_at - INTERVAL '2' DAY");
		markDead(outbox, dead);

		assertThat(cleanup(outbox, Duration.ZERO, HOUR).clean()).as("DEAD for less than an hour").isZero();

		outbox.jdbc().update("UPDATE " + TABLE + " SET dead_at = dead_at - INTERVAL '2' HOUR");
		assertThat(cleanup(outbox, Duration.ZERO, HOUR).clean()).as("DEAD for two hours").isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void retriedRowThatDiesAgainIsKeptForItsRetentionFromItsLatestDeath(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent dead = event("G");
		outbox.insert(store, Duration.ZERO, dead);
		markDead(outbox, dead);
		outbox.jdbc().update("UPDATE " + TABLE + " SET dead_at = dead_at - INTERVAL '2' HOUR");

		assertThat(outbox.storedEvents().retryDead(dead.id())).isTrue();
		assertThat(outbox.jdbc().queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE dead_at IS NULL", Integer.class))
			.as("a retried row is no longer DEAD").isEqualTo(1);
		markDead(outbox, dead);

		assertThat(cleanup(outbox, Duration.ZERO, HOUR).clean()).isZero();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void deadRowWithoutDeadAtCountsItsRetentionFromItsLastFailure(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent recent = event("R");
		CapturedEvent old = event("O");
		outbox.insert(store, Duration.ZERO, recent, old);
		// Made DEAD by an instance of an earlier version, which does not set dead_at (a rolling upgrade).
		outbox.jdbc().update("UPDATE " + TABLE + " SET status = 'DEAD', created_at = created_at - INTERVAL '2' DAY");
		outbox.jdbc().update("UPDATE " + TABLE + " SET available_at = available_at - INTERVAL '2' HOUR "
				+ "WHERE message_key = 'O'");

		assertThat(cleanup(outbox, Duration.ZERO, HOUR).clean()).isEqualTo(1);

		assertThat(outbox.jdbc().queryForList("SELECT message_key FROM " + TABLE, String.class)).containsExactly("R");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void onlyRowsPublishedLongerAgoThanTheRetentionAreDeleted(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		List<CapturedEvent> old = List.of(event("A"), event("B"), event("C"));
		List<CapturedEvent> recent = List.of(event("D"), event("E"));
		outbox.insert(store, Duration.ZERO, old.toArray(CapturedEvent[]::new));
		outbox.insert(store, Duration.ZERO, recent.toArray(CapturedEvent[]::new));
		outbox.transactions().executeWithoutResult((status) -> {
			store.markPublished(old.stream().map(CapturedEvent::id).toList());
			store.markPublished(recent.stream().map(CapturedEvent::id).toList());
		});
		outbox.jdbc().update("UPDATE " + TABLE + " SET published_at = published_at - INTERVAL '2' HOUR "
				+ "WHERE message_key IN ('A', 'B', 'C')");
		outbox.jdbc().update("UPDATE " + TABLE + " SET published_at = published_at - INTERVAL '10' MINUTE "
				+ "WHERE message_key IN ('D', 'E')");

		// Three rows past an hour, in batches of two: two batches.
		assertThat(cleanup(outbox, HOUR, null).clean()).isEqualTo(3);

		assertThat(outbox.jdbc().queryForList("SELECT message_key FROM " + TABLE, String.class))
			.containsExactlyInAnyOrder("D", "E");
	}

	private static void markDead(OutboxTestTable outbox, CapturedEvent event) {
		outbox.transactions()
			.executeWithoutResult((status) -> outbox.store()
				.markFailed(List.of(new FailedAttempt(event.id(), true, Duration.ZERO, "poison"))));
	}

	private static OutboxCleanup cleanup(OutboxTestTable outbox, Duration publishedRetention, Duration deadRetention) {
		return new OutboxCleanup(outbox.storedEvents(), outbox.transactions(), publishedRetention, deadRetention, 2,
				Duration.ofMinutes(1), SimpleAsyncTaskScheduler::new);
	}

}
