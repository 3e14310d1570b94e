package dev.outboxstarter.internal.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.internal.store.OutboxStatements.PublishedRows;
import dev.outboxstarter.internal.store.OutboxStore.Relaying;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.OutboxTestTable.RecordingDataSource;
import dev.outboxstarter.testsupport.OutboxTestTable.Row;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static dev.outboxstarter.testsupport.OutboxTestTable.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The store's statements on real PostgreSQL, MariaDB and H2, one transaction at a time: inserting,
 * claiming in order, the per-key head-of-line check, marking rows published or failed, and what a
 * claimed row carries. Concurrent claims are in {@link OutboxStoreLockingTests}.
 */
public class OutboxStoreTests {

	private static final String TABLE = "outbox_store_it";

	private static final Duration HOUR = Duration.ofHours(1);

	/** Slack for timestamps rounded to the column's precision. */
	private static final Duration PRECISION = Duration.ofMillis(1);

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void insertWritesAllEventsOfOneCallInOneJdbcBatch(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		RecordingDataSource recording = new RecordingDataSource(outbox.dataSource());
		OutboxStore store = outbox.store(recording, KeyOrdering.PER_KEY);

		store.insert(List.of(event("a"), event("b"), event("c")), Duration.ZERO);

		assertThat(recording.calls()).containsExactly("prepareStatement", "addBatch", "addBatch", "addBatch",
				"executeBatch");
		assertThat(outbox.jdbc().queryForObject("SELECT COUNT(*) FROM " + TABLE, Integer.class)).isEqualTo(3);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void insertedRowsArePendingWithNoAttemptsAndBecomeDueAfterTheirDelay(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		Instant before = outbox.databaseNow();
		CapturedEvent later = event("later");
		CapturedEvent now = event("now");
		store.insert(List.of(later), HOUR);
		store.insert(List.of(now), Duration.ZERO);
		Instant after = outbox.databaseNow();

		Row laterRow = outbox.row(later.id());
		Row nowRow = outbox.row(now.id());
		for (Row row : List.of(laterRow, nowRow)) {
			assertThat(row.status()).isEqualTo("PENDING");
			assertThat(row.attempts()).isZero();
			assertThat(row.lastError()).isNull();
			assertThat(row.publishedAt()).isNull();
			assertBetween(row.createdAt(), before, after);
		}
		assertBetween(laterRow.availableAt(), before.plus(HOUR), after.plus(HOUR));
		assertThat(Duration.between(laterRow.createdAt(), laterRow.availableAt())).isCloseTo(HOUR,
				Duration.ofSeconds(1));
		assertBetween(nowRow.availableAt(), before, after);

		assertThat(outbox.claimDueIds(store, 10)).containsExactly(now.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void claimDueReturnsDueRowsInSeqOrderUpToTheLimit(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		// Ids in descending order, so an order by id would not pass for seq order.
		List<UUID> ids = new ArrayList<>(List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
				UUID.randomUUID(), UUID.randomUUID()));
		ids.sort(Comparator.reverseOrder());
		List<CapturedEvent> events = new ArrayList<>();
		for (int i = 0; i < ids.size(); i++) {
			CapturedEvent template = event((i == 2) ? null : "key-" + i);
			events.add(new CapturedEvent(ids.get(i), template.aggregateType(), template.aggregateId(),
					template.eventType(), template.transport(), template.destination(), template.messageKey(),
					template.payload(), template.headers()));
		}
		store.insert(events.subList(0, 2), Duration.ZERO);
		store.insert(events.subList(2, 5), Duration.ZERO);

		assertThat(outbox.claimDueIds(store, 3)).containsExactlyElementsOf(ids.subList(0, 3));
		List<ClaimedEvent> all = outbox.transactions().execute((status) -> store.claimDue(10, 0).events());
		assertThat(ids(all)).containsExactlyElementsOf(ids);
		assertThat(all).extracting(ClaimedEvent::seq).isSorted().doesNotHaveDuplicates();
		assertThat(all).extracting(ClaimedEvent::seq)
			.containsExactlyElementsOf(ids.stream().map((id) -> outbox.row(id).seq()).toList());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void laterRowsOfAKeyAreNotClaimedWhileAnEarlierRowOfTheKeyIsNotDue(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("K1");
		CapturedEvent second = event("K1");
		CapturedEvent otherKey = event("K2");
		CapturedEvent sameKeyOtherDestination = event("kafka", "invoices", "K1");
		CapturedEvent sameKeyOtherTransport = event("rabbit", "orders", "K1");
		CapturedEvent noKey = event(null);
		store.insert(List.of(first), HOUR);
		store.insert(List.of(second, otherKey, sameKeyOtherDestination, sameKeyOtherTransport, noKey),
				Duration.ZERO);

		assertThat(outbox.claimDueIds(store, 10)).containsExactly(otherKey.id(), sameKeyOtherDestination.id(),
				sameKeyOtherTransport.id(), noKey.id());

		// The earlier row's retry comes due: the same claim now returns the key's rows in seq order.
		outbox.transactions()
			.executeWithoutResult((status) -> store
				.markFailed(List.of(new FailedAttempt(first.id(), false, Duration.ZERO, "broker down"))));
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(first.id(), second.id(), otherKey.id(),
				sameKeyOtherDestination.id(), sameKeyOtherTransport.id(), noKey.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void dueEarlierRowsOfAKeyAreClaimedWithTheLaterOnesInSeqOrderAndHoldNothingBack(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("K1");
		CapturedEvent second = event("K1");
		CapturedEvent third = event("K1");
		store.insert(List.of(first, second), Duration.ZERO);
		store.insert(List.of(third), Duration.ZERO);

		outbox.transactions().executeWithoutResult((status) -> {
			ClaimedBatch claimed = store.claimDue(10, 0);
			assertThat(ids(claimed)).containsExactly(first.id(), second.id(), third.id());
			assertThat(claimed.heldBack()).isEmpty();
		});
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void withoutPerKeyOrderingLaterRowsAreClaimedWhateverTheEarlierRowsOfTheirKey(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store(KeyOrdering.NONE);
		CapturedEvent first = event("K1");
		CapturedEvent second = event("K1");
		store.insert(List.of(first), HOUR);
		store.insert(List.of(second), Duration.ZERO);

		assertThat(outbox.claimDueIds(store, 10)).containsExactly(second.id());
		assertThat(outbox.claimDueIds(outbox.store(KeyOrdering.PER_KEY), 10)).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void claimDueAfterASeqLeavesEarlierRowsAndHoldsBackTheirKeys(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("k1");
		CapturedEvent cursor = event("k2");
		CapturedEvent behindFirst = event("k1");
		CapturedEvent otherKey = event("k3");
		CapturedEvent noKey = event(null);
		store.insert(List.of(first, cursor, behindFirst, otherKey, noKey), Duration.ZERO);
		long afterSeq = outbox.row(cursor.id()).seq();

		List<UUID> claimed = outbox.transactions().execute((status) -> ids(store.claimDue(10, afterSeq)));

		assertThat(claimed).containsExactly(otherKey.id(), noKey.id());
		List<UUID> claimedWithoutOrdering = outbox.transactions()
			.execute((status) -> ids(outbox.store(KeyOrdering.NONE).claimDue(10, afterSeq)));
		assertThat(claimedWithoutOrdering).containsExactly(behindFirst.id(), otherKey.id(), noKey.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void claimCapturedLocksOnlyThePendingRowsOfTheEventsInSeqOrder(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent a = event("a");
		CapturedEvent b = event("b");
		CapturedEvent c = event("c");
		CapturedEvent notAsked = event("d");
		// In their grace period: the fast path claims rows before they are due.
		store.insert(List.of(a, b, c, notAsked), HOUR);
		outbox.transactions().executeWithoutResult((status) -> store.markPublished(List.of(b.id())));

		List<UUID> claimed = outbox.transactions()
			.execute((status) -> ids(store.claimCaptured(List.of(c, b, event("never-inserted"), a))));

		assertThat(claimed).containsExactly(a.id(), c.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void claimCapturedReadsNeitherPayloadNorHeadersBackButClaimsTheCapturedOnes(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent event = new CapturedEvent(UUID.randomUUID(), "PurchaseOrder", "42", "OrderPlaced", "kafka",
				"orders", "42", "{\"total\":12}", Map.of("tenant", "acme"));
		store.insert(List.of(event), HOUR);

		List<ClaimedEvent> claimed = outbox.transactions()
			.execute((status) -> store.claimCaptured(List.of(event)).events());

		assertThat(outbox.statements(KeyOrdering.PER_KEY).claimByIds()).doesNotContain("payload")
			.doesNotContain("headers");
		assertThat(claimed).singleElement().satisfies((claim) -> {
			assertThat(claim.message().payload()).isEqualTo("{\"total\":12}");
			assertThat(claim.message().headers()).containsExactly(Map.entry("tenant", "acme"));
			assertThat(claim.message().occurredAt()).isNotNull();
			assertThat(claim.transport()).isEqualTo("kafka");
		});
	}

	/**
	 * Under steady writing, the pending index holds entries of rows published moments ago until vacuum
	 * removes them, while the statistics count only a few pending rows. Claiming through that index
	 * would visit every such entry on every fast-path batch.
	 */
	@Test
	void claimByIdsFindsItsRowsThroughThePrimaryKeyOnPostgreSql() {
		OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.POSTGRESQL, TABLE);
		OutboxStore store = outbox.store();
		List<CapturedEvent> published = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			published.add(event("key-" + i));
		}
		store.insert(published, Duration.ZERO);
		outbox.transactions()
			.executeWithoutResult((status) -> store.markPublished(published.stream().map(CapturedEvent::id).toList()));
		List<UUID> ids = new ArrayList<>(published.stream().limit(27).map(CapturedEvent::id).toList());
		ids.addAll(outbox.insert(store, HOUR, event("a"), event("b"), event("c")));
		outbox.jdbc().execute("ANALYZE " + TABLE);
		String claimByIds = outbox.statements(KeyOrdering.PER_KEY).claimByIds();

		String plan = outbox.transactions().execute((status) -> {
			// The table is small enough for a sequential scan, which at production sizes is not an option.
			outbox.jdbc().execute("SET LOCAL enable_seqscan = off");
			return String.join("\n", new NamedParameterJdbcTemplate(outbox.jdbc())
				.queryForList("EXPLAIN " + claimByIds, Map.of("ids", ids), String.class));
		});

		// How the claim finds its rows; its per-key check below (SubPlan) probes the few pending rows.
		String rowsScan = plan.substring(0, plan.contains("SubPlan") ? plan.indexOf("SubPlan") : plan.length());
		assertThat(rowsScan).contains(TABLE + "_pkey").doesNotContain(TABLE + "_pending_idx");
	}

	/**
	 * A backlog the table's statistics do not know of yet, here a table not analyzed since it was
	 * created: the planner would read every pending row, check each one's key and sort them all, for
	 * every claim of the drain, and over 100,000 rows that took 360 ms a claim instead of 7.
	 */
	@Test
	void claimDueWalksThePendingIndexInSeqOrderWhenTheStatisticsDoNotKnowTheBacklogOnPostgreSql() {
		String table = "outbox_unanalyzed_it";
		OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.POSTGRESQL, table);
		// Large enough for the planner to prefer sorting when it has no statistics (from about 40,000).
		insertRows(outbox, table, "PENDING", 50_000);
		OutboxStatements statements = outbox.statements(KeyOrdering.PER_KEY);

		String plan = outbox.transactions().execute((status) -> {
			outbox.jdbc().execute(statements.beforeClaimDue());
			return String.join("\n", new NamedParameterJdbcTemplate(outbox.jdbc()).queryForList(
					"EXPLAIN " + statements.claimDue(), Map.of("limit", 500, "afterSeq", 0L), String.class));
		});

		assertThat(plan).contains("Index Scan using " + table + "_pending_idx on " + table + " e")
			.doesNotContain("Sort");
	}

	/**
	 * A healthy outbox keeps up, so when vacuum last counted them its partial indexes held no pending
	 * row; then an outage builds a backlog. The per-key checks of every claim must still probe the key's
	 * own rows, not walk the pending index's entries of every earlier row: with 10,000,000 published rows
	 * retained that walk made a 100,000-event drain take 80 s instead of 10.
	 */
	@Test
	void perKeyChecksProbeTheKeyIndexWhenVacuumLastFoundNoPendingRowOnPostgreSql() {
		String table = "outbox_vacuumed_it";
		OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.POSTGRESQL, table);
		insertRows(outbox, table, "PUBLISHED", 20_000);
		outbox.jdbc().execute("VACUUM ANALYZE " + table);
		insertRows(outbox, table, "PENDING", 5_000);
		List<UUID> ids = outbox.jdbc().queryForList("SELECT id FROM " + table + " WHERE status = 'PENDING' LIMIT 50",
				UUID.class);
		OutboxStatements statements = outbox.statements(KeyOrdering.PER_KEY);
		Map<String, Object> parameters = Map.of("ids", ids, "limit", 500, "afterSeq", 0L);

		for (String statement : List.of(statements.claimDue(), statements.claimByIds(), statements.heldBack())) {
			String plan = outbox.transactions().execute((status) -> {
				outbox.jdbc().execute(statements.beforeClaimDue());
				return String.join("\n", new NamedParameterJdbcTemplate(outbox.jdbc())
					.queryForList("EXPLAIN " + statement, parameters, String.class));
			});
			String perKeyCheck = plan.substring(plan.indexOf("SubPlan"));
			assertThat(perKeyCheck).as(plan).contains(table + "_key_idx").doesNotContain(table + "_pending_idx");
		}
	}

	/** Inserts rows of keys {@code key-1} to {@code key-<count>} with one statement, as PostgreSQL can. */
	private static void insertRows(OutboxTestTable outbox, String table, String status, int count) {
		outbox.jdbc().update("INSERT INTO " + table + " (id, event_type, transport, destination, message_key, payload, "
				+ "status, available_at, created_at, published_at) SELECT gen_random_uuid(), 'OrderPlaced', 'kafka', "
				+ "'orders', 'key-' || g, '{}', ?, clock_timestamp(), clock_timestamp(), "
				+ "CASE WHEN ? = 'PUBLISHED' THEN clock_timestamp() END FROM generate_series(1, ?) g", status, status, count);
	}

	/**
	 * Cleanup runs every few seconds next to millions of retained rows, nearly all of them younger than
	 * the retention: it must find the expired ones through the index, not read every published row.
	 */
	@Test
	void cleanupReadsTheExpiredRowsThroughTheIndexOnPostgreSql() {
		OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.POSTGRESQL, TABLE);
		String deletePublished = outbox.statements(KeyOrdering.PER_KEY).deletePublished();

		String plan = outbox.transactions().execute((status) -> {
			// The table is small enough for a sequential scan, which at production sizes is not an option.
			outbox.jdbc().execute("SET LOCAL enable_seqscan = off");
			return String.join("\n", new NamedParameterJdbcTemplate(outbox.jdbc()).queryForList(
					"EXPLAIN " + deletePublished, Map.of("retentionMillis", 3_600_000L, "limit", 1000), String.class));
		});

		assertThat(plan).containsPattern("Index Cond: \\(published_at <= ");
	}

	/**
	 * H2's claim locks rows in the order of the index it reads (an ORDER BY there would lock every due
	 * row); the order the batch is published in must not depend on that index.
	 */
	@Test
	void claimDueOnH2ReturnsRowsInSeqOrderEvenFromAnIndexInAnotherOrder() {
		String table = "outbox_h2_index_order_it";
		OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.H2, table);
		// The index under the name the claim pins, but by message key before seq.
		outbox.jdbc().execute("DROP INDEX IF EXISTS " + table + "_pending_idx");
		outbox.jdbc().execute("CREATE INDEX " + table + "_pending_idx ON " + table + " (status, message_key, seq)");
		OutboxStore store = outbox.store();
		List<UUID> rows = outbox.insert(store, Duration.ZERO, event("z"), event("a"), event("m"));

		assertThat(outbox.claimDueIds(store, 10)).containsExactlyElementsOf(rows);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void markPublishedSetsThePublishedStatusAndTimeAndTheRowIsNotClaimedAgain(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent published = event("a");
		CapturedEvent alsoPublished = event("b");
		CapturedEvent pending = event("c");
		store.insert(List.of(published, alsoPublished, pending), Duration.ZERO);

		Instant before = outbox.databaseNow();
		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(3);
			store.markPublished(List.of(published.id(), alsoPublished.id()));
		});
		Instant after = outbox.databaseNow();

		for (UUID id : List.of(published.id(), alsoPublished.id())) {
			Row row = outbox.row(id);
			assertThat(row.status()).isEqualTo("PUBLISHED");
			assertThat(row.publishedAt()).isNotNull();
			assertBetween(row.publishedAt(), before, after);
			assertThat(row.attempts()).isZero();
		}
		assertThat(outbox.row(pending.id()).status()).isEqualTo("PENDING");
		assertThat(outbox.row(pending.id()).publishedAt()).isNull();
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(pending.id());
		assertThat(outbox.transactions().<List<ClaimedEvent>>execute((status) -> store.claimCaptured(List.of(published)).events()))
			.isEmpty();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void markPublishedDeletesTheRowsWhenTheTableKeepsNoPublishedRows(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = new OutboxStore(outbox.dataSource(), outbox.vendor(),
				OutboxStatements.load(outbox.vendor(), TABLE, KeyOrdering.PER_KEY, PublishedRows.DELETED),
				new JsonMapper(), Relaying.POLLED, null);
		CapturedEvent published = event("a");
		CapturedEvent alsoPublished = event("b");
		CapturedEvent pending = event("c");
		store.insert(List.of(published, alsoPublished, pending), Duration.ZERO);

		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(3);
			store.markPublished(List.of(published.id(), alsoPublished.id()));
		});

		assertThat(outbox.jdbc().queryForList("SELECT id FROM " + TABLE, String.class))
			.containsExactly(pending.id().toString());
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(pending.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void resumeBackedOffMakesOnlyTheTransportsBackingOffPendingRowsDue(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent backingOff = event("kafka", "t", "a");
		CapturedEvent otherTransport = event("rabbit", "x", "b");
		CapturedEvent inGrace = event("kafka", "t", "c");
		store.insert(List.of(backingOff, otherTransport), Duration.ZERO);
		store.insert(List.of(inGrace), HOUR);
		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(2);
			store.markFailed(List.of(new FailedAttempt(backingOff.id(), false, HOUR, "broker down"),
					new FailedAttempt(otherTransport.id(), false, HOUR, "broker down")));
		});
		assertThat(outbox.claimDueIds(store, 10)).isEmpty();
		Integer resumed = outbox.transactions().execute((status) -> store.resumeBackedOff("kafka"));

		assertThat(resumed).isOne();

		assertThat(outbox.claimDueIds(store, 10)).containsExactly(backingOff.id());
		assertThat(outbox.row(backingOff.id()).attempts()).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void resumeBackedOffOfADestinationMakesOnlyItsBackingOffPendingRowsDue(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent backingOff = event("kafka", "created-at-last", "a");
		CapturedEvent otherDestination = event("kafka", "t", "b");
		CapturedEvent otherTransport = event("rabbit", "created-at-last", "c");
		store.insert(List.of(backingOff, otherDestination, otherTransport), Duration.ZERO);
		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(3);
			store.markFailed(Stream.of(backingOff, otherDestination, otherTransport)
				.map((event) -> new FailedAttempt(event.id(), false, HOUR, "unavailable"))
				.toList());
		});
		Integer resumed = outbox.transactions()
			.execute((status) -> store.resumeBackedOff("kafka", "created-at-last"));

		assertThat(resumed).isOne();
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(backingOff.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void postponeDelaysTheRowsByTheDatabaseClockSaysWhyAndCountsNoAttempt(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("kafka", "paused", "a");
		CapturedEvent second = event("kafka", "paused", "b");
		CapturedEvent other = event("kafka", "t", "c");
		store.insert(List.of(first, second, other), Duration.ZERO);

		Instant before = outbox.databaseNow();
		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(3);
			store.postpone(List.of(first.id(), second.id()), HOUR, "Not sent: its destination is paused");
		});
		Instant after = outbox.databaseNow();

		for (UUID id : List.of(first.id(), second.id())) {
			Row row = outbox.row(id);
			assertThat(row.status()).isEqualTo("PENDING");
			assertThat(row.attempts()).isZero();
			assertThat(row.lastError()).isEqualTo("Not sent: its destination is paused");
			assertBetween(row.availableAt(), before.plus(HOUR), after.plus(HOUR));
		}
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(other.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void resumeBackedOffOfADestinationMakesItsPostponedRowsDueButNotItsRowsInTheirGrace(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent postponed = event("kafka", "created-at-last", "a");
		CapturedEvent inGrace = event("kafka", "created-at-last", "b");
		store.insert(List.of(postponed), Duration.ZERO);
		store.insert(List.of(inGrace), HOUR);
		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(1);
			store.postpone(List.of(postponed.id()), HOUR, "Not sent: its destination is paused");
		});
		assertThat(outbox.claimDueIds(store, 10)).isEmpty();

		Integer resumed = outbox.transactions()
			.execute((status) -> store.resumeBackedOff("kafka", "created-at-last"));

		assertThat(resumed).isOne();
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(postponed.id());
		assertThat(outbox.row(postponed.id()).attempts()).isZero();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void markFailedCountsTheAttemptKeepsTheErrorAndDelaysTheRowByTheDatabaseClock(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent failing = event("a");
		CapturedEvent other = event("b");
		store.insert(List.of(failing, other), Duration.ZERO);

		Instant before = outbox.databaseNow();
		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(store.claimDue(10, 0).events()).hasSize(2);
			store.markFailed(List.of(new FailedAttempt(failing.id(), false, HOUR, "Connection refused: broker:9092")));
		});
		Instant after = outbox.databaseNow();

		Row row = outbox.row(failing.id());
		assertThat(row.status()).isEqualTo("PENDING");
		assertThat(row.attempts()).isEqualTo(1);
		assertThat(row.lastError()).isEqualTo("Connection refused: broker:9092");
		assertThat(row.publishedAt()).isNull();
		assertBetween(row.availableAt(), before.plus(HOUR), after.plus(HOUR));
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(other.id());

		String longError = "é".repeat(1500) + "x".repeat(3500);
		outbox.transactions()
			.executeWithoutResult((status) -> store
				.markFailed(List.of(new FailedAttempt(failing.id(), false, Duration.ZERO, longError))));

		row = outbox.row(failing.id());
		assertThat(row.attempts()).isEqualTo(2);
		assertThat(row.lastError()).hasSize(2000).isEqualTo(longError.substring(0, 1997) + "...");
		assertThat(outbox.claimDueIds(store, 10)).containsExactly(failing.id(), other.id());
		assertThat(outbox.transactions().execute((status) -> store.claimDue(10, 0).events()).get(0).attempts()).isEqualTo(2);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void deadRowIsNeverClaimedAndNoLongerHoldsBackItsKey(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		CapturedEvent first = event("K1");
		CapturedEvent second = event("K1");
		store.insert(List.of(first), HOUR);
		store.insert(List.of(second), Duration.ZERO);
		assertThat(outbox.claimDueIds(store, 10)).isEmpty();

		outbox.transactions()
			.executeWithoutResult((status) -> store
				.markFailed(List.of(new FailedAttempt(first.id(), true, Duration.ZERO, "poison message"))));

		Row dead = outbox.row(first.id());
		assertThat(dead.status()).isEqualTo("DEAD");
		assertThat(dead.attempts()).isEqualTo(1);
		assertThat(dead.lastError()).isEqualTo("poison message");
		outbox.transactions().executeWithoutResult((status) -> {
			ClaimedBatch claimed = store.claimDue(10, 0);
			assertThat(ids(claimed)).containsExactly(second.id());
			assertThat(claimed.heldBack()).isEmpty();
			assertThat(store.claimCaptured(List.of(first)).events()).isEmpty();
		});
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void deadRowHoldsBackItsKeyWhenConfiguredUntilItIsRetried(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		OutboxStore blocking = outbox.deadBlockingStore();
		CapturedEvent first = event("K1");
		CapturedEvent second = event("K1");
		CapturedEvent other = event("K2");
		outbox.insert(store, Duration.ZERO, first, second, other);
		outbox.transactions()
			.executeWithoutResult((status) -> store
				.markFailed(List.of(new FailedAttempt(first.id(), true, Duration.ZERO, "poison message"))));

		outbox.transactions().executeWithoutResult((status) -> {
			assertThat(ids(blocking.claimDue(10, 0))).containsExactly(other.id());
			ClaimedBatch byId = blocking.claimCaptured(List.of(second));
			assertThat(ids(byId)).containsExactly(second.id());
			assertThat(byId.heldBack()).containsExactly(second.id());
		});
		assertThat(outbox.claimDueIds(store, 10)).as("by default a DEAD row stops blocking")
			.containsExactly(second.id(), other.id());

		StoredEvents storedEvents = outbox.storedEvents();
		assertThat(storedEvents.retryDead(first.id())).isTrue();
		assertThat(storedEvents.retryDead(first.id())).as("no longer DEAD").isFalse();
		Row retried = outbox.row(first.id());
		assertThat(retried.status()).isEqualTo("PENDING");
		assertThat(retried.attempts()).isZero();
		assertThat(outbox.claimDueIds(blocking, 10)).containsExactly(first.id(), second.id(), other.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aBinaryPayloadIsClaimedWithItsContentTypeAndItsBytesAsWrittenWhileJsonRowsHaveNone(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		byte[] bytes = { 0, 0, 0, 0, 42, (byte) 0xff, (byte) 0xfe, 0x02, 'a', (byte) 0x80 };
		CapturedEvent binary = new CapturedEvent(UUID.randomUUID(), null, null, "Shipped", "kafka", "shipments", "k",
				Base64.getEncoder().encodeToString(bytes), Map.of(), null, false, "application/avro");
		CapturedEvent json = event("k");
		store.insert(List.of(binary, json), Duration.ZERO);

		List<ClaimedEvent> claimed = outbox.transactions().execute((status) -> store.claimDue(10, 0).events());

		assertThat(claimed).extracting((event) -> event.message().contentType()).containsExactly("application/avro", null);
		assertThat(claimed.get(0).message().payloadBytes()).isEqualTo(bytes);
		assertThat(claimed.get(1).message().payloadBytes()).isEqualTo(json.payload().getBytes(StandardCharsets.UTF_8));
		List<ClaimedEvent> captured = outbox.transactions()
			.execute((status) -> store.claimCaptured(List.of(binary)).events());
		assertThat(captured).singleElement().satisfies((event) -> {
			assertThat(event.message().contentType()).isEqualTo("application/avro");
			assertThat(event.message().payloadBytes()).isEqualTo(bytes);
		});
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void claimedRowsCarryTheHeadersPayloadAndCreationTimeAsWritten(TestDatabase database) {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, TABLE);
		OutboxStore store = outbox.store();
		Map<String, String> headers = Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
				"outbox-correlation-id", "c-42", "note", "Grüße \"quoted\" 日本");
		String payload = "{\"customer\":\"Zoë Ångström\",\"city\":\"東京\",\"note\":\"naïve café 🚀\"}";
		CapturedEvent withHeaders = new CapturedEvent(UUID.randomUUID(), "PurchaseOrder", "42", "OrderPlaced",
				"kafka", "orders", "42", payload, headers);
		CapturedEvent withoutHeaders = new CapturedEvent(UUID.randomUUID(), null, null, "Ping", "local", "pings", null,
				"{}", Map.of());
		Instant before = outbox.databaseNow();
		store.insert(List.of(withHeaders, withoutHeaders), Duration.ZERO);
		Instant after = outbox.databaseNow();

		List<ClaimedEvent> claimed = outbox.transactions().execute((status) -> store.claimDue(10, 0).events());

		assertThat(claimed).hasSize(2);
		ClaimedEvent event = claimed.get(0);
		OutboxMessage message = event.message();
		assertThat(message.id()).isEqualTo(withHeaders.id());
		assertThat(message.eventType()).isEqualTo("OrderPlaced");
		assertThat(message.aggregateType()).isEqualTo("PurchaseOrder");
		assertThat(message.aggregateId()).isEqualTo("42");
		assertThat(message.destination()).isEqualTo("orders");
		assertThat(message.key()).isEqualTo("42");
		assertThat(message.payload()).isEqualTo(payload);
		assertThat(message.headers()).isEqualTo(headers);
		assertThat(event.transport()).isEqualTo("kafka");
		assertThat(event.attempts()).isZero();
		assertThat(event.seq()).isEqualTo(outbox.row(withHeaders.id()).seq());
		assertBetween(message.occurredAt(), before, after);
		assertThat(message.occurredAt()).isCloseTo(Instant.now(), within(1, ChronoUnit.MINUTES));

		OutboxMessage bare = claimed.get(1).message();
		assertThat(bare.id()).isEqualTo(withoutHeaders.id());
		assertThat(bare.headers()).isEmpty();
		assertThat(bare.aggregateType()).isNull();
		assertThat(bare.aggregateId()).isNull();
		assertThat(bare.key()).isNull();
		assertThat(claimed.get(1).orderingKey()).isNull();
		assertThat(claimed.get(1).transport()).isEqualTo("local");
	}

	private static void assertBetween(Instant actual, Instant from, Instant to) {
		assertThat(actual).isBetween(from.minus(PRECISION), to.plus(PRECISION));
	}

}
