package dev.outboxstarter.internal.store;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.testsupport.HeldTransaction;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.OutboxTestTable.RecordingDataSource;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static dev.outboxstarter.testsupport.OutboxTestTable.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Concurrent claims on real PostgreSQL, MariaDB and H2: transaction A claims rows on a thread of its
 * own and keeps them locked while transaction B claims on the test's thread, as two relay instances
 * or a relay and a fast path do.
 */
public class OutboxStoreLockingTests {

	private static final String TABLE = "outbox_store_lock_it";

	private static final Duration HOUR = Duration.ofHours(1);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void claimDueSkipsRowsLockedByAnotherTransactionAndStillFillsItsBatch(TestDatabase database) throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		List<CapturedEvent> events = List.of(event("a"), event("b"), event("c"), event("d"), event("e"));
		List<UUID> rows = outbox.insert(store, Duration.ZERO, events.toArray(CapturedEvent[]::new));

		try (HeldTransaction<List<ClaimedEvent>> a = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimDue(2, 0).events())) {
			assertThat(ids(a.result())).containsExactlyElementsOf(rows.subList(0, 2));

			assertThat(outbox.claimDueIds(store, 2)).containsExactlyElementsOf(rows.subList(2, 4));
			assertThat(outbox.claimDueIds(store, 10)).containsExactlyElementsOf(rows.subList(2, 5));
			assertThat(outbox.transactions().<List<UUID>>execute((status) -> ids(store.claimCaptured(events))))
				.containsExactlyElementsOf(rows.subList(2, 5));

			a.commit();
		}
		// Committing released the locks; nothing was marked, so everything is due again.
		assertThat(outbox.claimDueIds(store, 10)).containsExactlyElementsOf(rows);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void twoConcurrentClaimsNeverShareARow(TestDatabase database) throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		List<UUID> rows = outbox.insert(store, Duration.ZERO, event("a"), event("b"), event("c"), event("d"));

		try (HeldTransaction<List<ClaimedEvent>> a = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimDue(3, 0).events());
				HeldTransaction<List<ClaimedEvent>> b = HeldTransaction.start(outbox.transactions(), store,
						(s) -> s.claimDue(3, 0).events())) {
			assertThat(ids(a.result())).containsExactlyElementsOf(rows.subList(0, 3));
			assertThat(ids(b.result())).containsExactly(rows.get(3));
			a.commit((s) -> s.markPublished(ids(a.result())));
			b.commit((s) -> s.markPublished(ids(b.result())));
		}
		assertThat(outbox.claimDueIds(store, 10)).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aClaimLocksOnlyTheRowsItReturns(TestDatabase database) throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent notDue = event("K1");
		CapturedEvent heldBackByNotDue = event("K1");
		CapturedEvent first = event("K2");
		CapturedEvent beyondTheLimit = event("K3");
		outbox.insert(store, HOUR, notDue);
		outbox.insert(store, Duration.ZERO, heldBackByNotDue, first, beyondTheLimit);

		// A reads the not-due row in its head-of-line check and passes over two rows, but returns one.
		try (HeldTransaction<List<ClaimedEvent>> a = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimDue(1, 0).events())) {
			assertThat(ids(a.result())).containsExactly(first.id());

			List<CapturedEvent> others = List.of(notDue, heldBackByNotDue, first, beyondTheLimit);
			assertThat(outbox.transactions().<List<UUID>>execute((status) -> ids(store.claimCaptured(others))))
				.containsExactly(notDue.id(), heldBackByNotDue.id(), beyondTheLimit.id());
			a.commit();
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void laterRowOfAKeyIsHeldBackWhileAnotherTransactionPublishesTheEarlierOne(TestDatabase database)
			throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("K");
		CapturedEvent second = event("K");
		CapturedEvent otherKey = event("L");
		outbox.insert(store, Duration.ZERO, first, second, otherKey);

		// A is the fast path publishing the first event of K.
		try (HeldTransaction<ClaimedBatch> a = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimCaptured(List.of(first)))) {
			assertThat(ids(a.result())).containsExactly(first.id());

			// B, another fast path: gets the second row locked, but must leave it. Its claim says so
			// when it got every row it asked for.
			outbox.transactions().executeWithoutResult((status) -> {
				ClaimedBatch batch = store.claimCaptured(List.of(second));
				assertThat(ids(batch)).containsExactly(second.id());
				assertThat(batch.heldBack()).containsExactly(second.id());
			});
			// Asked for both, it could not lock the first, which its claim's check passes over as one of
			// its own: the claim asks again which rows an earlier pending row outside it holds back.
			outbox.transactions().executeWithoutResult((status) -> {
				ClaimedBatch batch = store.claimCaptured(List.of(first, second));
				assertThat(ids(batch)).containsExactly(second.id());
				assertThat(batch.heldBack()).containsExactly(second.id());
			});
			// B, a relay: the same.
			outbox.transactions().executeWithoutResult((status) -> {
				ClaimedBatch claimed = store.claimDue(10, 0);
				assertThat(ids(claimed)).containsExactly(second.id(), otherKey.id());
				assertThat(claimed.heldBack()).containsExactly(second.id());
			});

			a.commit((s) -> s.markPublished(List.of(first.id())));
		}

		outbox.transactions().executeWithoutResult((status) -> {
			ClaimedBatch batch = store.claimCaptured(List.of(second));
			assertThat(ids(batch)).containsExactly(second.id());
			assertThat(batch.heldBack()).isEmpty();
		});
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void laterRowOfAKeyStaysHeldBackWhenTheEarlierOneFailsAndAwaitsItsRetry(TestDatabase database)
			throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("K");
		CapturedEvent second = event("K");
		CapturedEvent otherKey = event("L");
		outbox.insert(store, Duration.ZERO, first, second, otherKey);

		try (HeldTransaction<ClaimedBatch> a = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimCaptured(List.of(first)))) {
			assertThat(ids(a.result())).containsExactly(first.id());
			a.commit((s) -> s.markFailed(List.of(new FailedAttempt(first.id(), false, HOUR, "broker down"))));
		}

		// The relay's claim leaves K alone; a fast path that claims the second row by id holds it back.
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(otherKey.id());
		outbox.transactions().executeWithoutResult((status) -> {
			ClaimedBatch batch = store.claimCaptured(List.of(second));
			assertThat(batch.heldBack()).containsExactly(second.id());
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void claimWhoseConnectionStaysIdleLongerThanTheLimitIsEndedAndItsRowsAreClaimedAgain(TestDatabase database)
			throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store(outbox.dataSource(), Duration.ofSeconds(1));
		List<UUID> rows = outbox.insert(store, Duration.ZERO, event("K"), event("K"), event("L"));

		try (HeldTransaction<List<ClaimedEvent>> frozen = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimDue(1, 0).events())) {
			assertThat(ids(frozen.result())).containsExactly(rows.get(0));
			// Its claim sits idle, as that of an instance that stopped without dying: the database ends it.
			await("the idle claim's rows to be claimed again").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> outbox.claimDueIds(store, 10), (claimed) -> claimed.equals(rows));
			assertThatIllegalStateException().isThrownBy(() -> frozen.commit((s) -> s.markPublished(rows.subList(0, 1))));
		}
		assertThat(outbox.row(rows.get(0)).status()).isEqualTo("PENDING");
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void claimsOfSeveralTablesInOneTransactionLimitItsIdleTimeOnce(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxTestTable other = OutboxTestTable.prepare(database, TABLE + "_other");
		RecordingDataSource recording = new RecordingDataSource(outbox.dataSource());
		OutboxStore store = outbox.store(recording, Duration.ofSeconds(7));
		OutboxStore otherStore = other.store(recording, Duration.ofSeconds(7));
		outbox.insert(store, Duration.ZERO, event("K"));
		other.insert(otherStore, Duration.ZERO, event("K"));
		recording.preparedStatements().clear();

		OutboxTestTable.transactions(recording).executeWithoutResult((status) -> {
			assertThat(ids(store.claimDue(10, 0).events())).hasSize(1);
			assertThat(ids(otherStore.claimDue(10, 0).events())).hasSize(1);
		});

		assertThat(recording.preparedStatements())
			.filteredOn((sql) -> sql.contains("idle_in_transaction_session_timeout") || sql.contains("wait_timeout"))
			.hasSize(1);
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void claimLeavesTheSessionsIdleLimitAsItWasOnceItsTransactionHasCompleted(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		// One session for everything, as a pool lends the same connection to the outbox and the application.
		SingleConnectionDataSource session = new SingleConnectionDataSource(database.url(), database.username(),
				database.password(), true);
		try {
			OutboxStore store = outbox.store(session, Duration.ofSeconds(7));
			outbox.insert(store, Duration.ZERO, event("K"));
			JdbcTemplate jdbc = new JdbcTemplate(session);
			String idleLimit = (database == TestDatabase.POSTGRESQL) ? "SHOW idle_in_transaction_session_timeout"
					: "SELECT @@SESSION.wait_timeout";
			String before = jdbc.queryForObject(idleLimit, String.class);
			TransactionTemplate transactions = OutboxTestTable.transactions(session);

			String duringClaim = transactions.execute((status) -> {
				assertThat(ids(store.claimDue(10, 0).events())).hasSize(1);
				return jdbc.queryForObject(idleLimit, String.class);
			});
			String afterCommit = jdbc.queryForObject(idleLimit, String.class);
			transactions.executeWithoutResult((status) -> {
				store.claimDue(10, 0);
				status.setRollbackOnly();
			});
			String afterRollback = jdbc.queryForObject(idleLimit, String.class);

			assertThat(duringClaim).isIn("7s", "7");
			assertThat(afterCommit).isEqualTo(before);
			assertThat(afterRollback).isEqualTo(before);
		}
		finally {
			session.destroy();
		}
	}

}
