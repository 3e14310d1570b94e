package dev.outboxstarter.internal.operations;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.internal.operations.DefaultOutboxAdministration.AdministeredTable;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.store.EventSearch;
import dev.outboxstarter.internal.store.FailedAttempt;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.operations.DeadEventCount;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The console's statements on real PostgreSQL, MariaDB and H2: finding rows by each criterion of a
 * query, newest first and a page at a time, hiding values unless asked; counting DEAD rows by type and
 * destination; retrying the DEAD rows a query matches and no others; and republishing PUBLISHED rows as
 * new pending rows, in order, to their destination or another, once the limit and the destination are
 * known to be good.
 */
class EventSearchAndRepublishTests {

	private static final String TABLE = "outbox_search_it";

	/** A transport that takes no destination an operator gives. */
	private static final String REFUSING = "refusing";

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void findsRowsByEachCriterionNewestFirstAPageAtATime(TestDatabase database) {
		Fixture fixture = new Fixture(database);
		CapturedEvent first = event("orders", "k1", "OrderPlaced", "{\"n\":1}");
		CapturedEvent second = event("orders", "k2", "OrderPaid", "{\"n\":2}");
		CapturedEvent third = event("payments", "k1", "OrderPaid", "{\"n\":3}");
		fixture.store.insert(List.of(first, second, third), Duration.ZERO);
		Instant between = fixture.outbox.databaseNow();
		CapturedEvent fourth = event("orders", "k3", "OrderPlaced", "{\"n\":4}");
		fixture.store.insert(List.of(fourth), Duration.ZERO);
		fixture.store.markPublished(List.of(second.id()));

		assertThat(ids(fixture.search.find(EventQuery.all(), 0, 10, false))).containsExactly(fourth.id(), third.id(),
				second.id(), first.id());
		assertThat(ids(fixture.search.find(EventQuery.all(), 1, 2, false))).containsExactly(third.id(), second.id());
		assertThat(ids(fixture.search.find(EventQuery.all().withStatus(EventStatus.PUBLISHED), 0, 10, false)))
			.containsExactly(second.id());
		assertThat(ids(fixture.search.find(query(null, "OrderPaid", null, null), 0, 10, false)))
			.containsExactly(third.id(), second.id());
		assertThat(ids(fixture.search.find(query(null, null, "payments", null), 0, 10, false)))
			.containsExactly(third.id());
		assertThat(ids(fixture.search.find(query(null, null, null, "k1"), 0, 10, false))).containsExactly(third.id(),
				first.id());
		assertThat(ids(fixture.search.find(new EventQuery(null, null, null, null, "Order", "k3", null, null), 0, 10,
				false)))
			.containsExactly(fourth.id());
		assertThat(ids(fixture.search.find(new EventQuery(null, null, null, null, null, null, between, null), 0, 10,
				false)))
			.containsExactly(fourth.id());
		assertThat(ids(fixture.search.find(new EventQuery(null, null, null, null, null, null, null, between), 0, 10,
				false)))
			.containsExactly(third.id(), second.id(), first.id());
		assertThat(ids(fixture.search.find(new EventQuery(EventStatus.PENDING, "OrderPlaced", "orders", "k1", null,
				null, null, between), 0, 10, false)))
			.containsExactly(first.id());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void findsOneRowWithItsValuesOnlyWhenAskedFor(TestDatabase database) {
		Fixture fixture = new Fixture(database);
		CapturedEvent event = new CapturedEvent(UUID.randomUUID(), "Order", "o-1", "OrderPlaced", "kafka", "orders",
				"o-1", "{\"total\":12}", Map.of("tenant", "t-1"));
		fixture.store.insert(List.of(event), Duration.ZERO);

		StoredEvent withValues = fixture.search.find(event.id(), true);
		assertThat(withValues).isNotNull();
		assertThat(withValues.payload()).isEqualTo("{\"total\":12}");
		assertThat(withValues.headers()).contains("\"tenant\"");
		assertThat(withValues.key()).isEqualTo("o-1");
		assertThat(withValues.aggregateId()).isEqualTo("o-1");
		assertThat(withValues.status()).isEqualTo(EventStatus.PENDING);
		StoredEvent withoutValues = fixture.search.find(event.id(), false);
		assertThat(withoutValues).isNotNull();
		assertThat(withoutValues.payload()).isNull();
		assertThat(withoutValues.headers()).isNull();
		assertThat(withoutValues.key()).isNull();
		assertThat(withoutValues.aggregateId()).isNull();
		assertThat(withoutValues.eventType()).isEqualTo("OrderPlaced");
		assertThat(fixture.search.find(UUID.randomUUID(), true)).isNull();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void countsDeadRowsByTypeAndDestinationAndRetriesOnlyTheDeadRowsAQueryMatches(TestDatabase database) {
		Fixture fixture = new Fixture(database);
		CapturedEvent deadPlaced = event("orders", "k1", "OrderPlaced", "{}");
		CapturedEvent deadPaid = event("orders", "k2", "OrderPaid", "{}");
		CapturedEvent otherDeadPaid = event("orders", "k3", "OrderPaid", "{}");
		CapturedEvent pendingPaid = event("orders", "k4", "OrderPaid", "{}");
		fixture.store.insert(List.of(deadPlaced, deadPaid, otherDeadPaid, pendingPaid), Duration.ZERO);
		fixture.store.markFailed(List.of(dead(deadPlaced), dead(deadPaid), dead(otherDeadPaid)));

		assertThat(fixture.search.countDead()).containsExactly(new DeadEventCount("OrderPaid", "kafka", "orders", 2),
				new DeadEventCount("OrderPlaced", "kafka", "orders", 1));

		int retried = fixture.administration.retryDead(query(EventStatus.PUBLISHED, "OrderPaid", "orders", "k2"));

		assertThat(retried).isOne();
		assertThat(fixture.outbox.row(deadPaid.id()).status()).isEqualTo("PENDING");
		assertThat(fixture.outbox.row(deadPaid.id()).attempts()).isZero();
		assertThat(fixture.outbox.row(otherDeadPaid.id()).status()).isEqualTo("DEAD");
		assertThat(fixture.outbox.row(deadPlaced.id()).status()).isEqualTo("DEAD");
		assertThat(fixture.administration.retryDead(query(null, "OrderPaid", null, null))).isOne();
		assertThat(fixture.outbox.row(otherDeadPaid.id()).status()).isEqualTo("PENDING");
		assertThat(fixture.outbox.row(deadPlaced.id()).status()).isEqualTo("DEAD");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void republishCopiesMatchingPublishedRowsInOrderAsNewPendingRowsDueAtOnce(TestDatabase database) {
		Fixture fixture = new Fixture(database);
		CapturedEvent first = event("orders", "k1", "OrderPlaced", "{\"n\":1}");
		CapturedEvent second = event("orders", "k1", "OrderPaid", "{\"n\":2}");
		CapturedEvent otherKey = event("orders", "k2", "OrderPaid", "{\"n\":3}");
		CapturedEvent notPublished = event("orders", "k1", "OrderShipped", "{\"n\":4}");
		fixture.store.insert(List.of(first, second, otherKey, notPublished), Duration.ZERO);
		fixture.store.markPublished(List.of(first.id(), second.id(), otherKey.id()));

		List<UUID> copies = fixture.administration.republish(query(null, null, null, "k1"), null, 100);

		assertThat(copies).hasSize(2).doesNotContain(first.id(), second.id());
		List<StoredEvent> copied = copies.stream().map((id) -> fixture.search.find(id, true)).toList();
		assertThat(copied).extracting(StoredEvent::payload).containsExactly("{\"n\":1}", "{\"n\":2}");
		assertThat(copied).allSatisfy((copy) -> {
			assertThat(copy.status()).isEqualTo(EventStatus.PENDING);
			assertThat(copy.destination()).isEqualTo("orders");
			assertThat(copy.key()).isEqualTo("k1");
			assertThat(copy.attempts()).isZero();
		});
		assertThat(copied.get(0).headers()).contains("\"" + OutboxHeaders.REPUBLISHED_FROM + "\":\"" + first.id() + "\"");
		assertThat(copied.get(1).headers()).contains("\"" + OutboxHeaders.REPUBLISHED_FROM + "\":\"" + second.id() + "\"");
		assertThat(copied.get(0).seq()).isLessThan(copied.get(1).seq()).isGreaterThan(fixture.outbox.row(notPublished.id()).seq());
		assertThat(fixture.outbox.row(first.id()).status()).isEqualTo("PUBLISHED");
		// Due at once, after the key's earlier pending row.
		assertThat(fixture.outbox.claimDueIds(fixture.store, 10)).containsExactly(notPublished.id(), copies.get(0),
				copies.get(1));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void republishSendsCopiesToAnotherDestinationUpToTheLimitOldestFirst(TestDatabase database) {
		Fixture fixture = new Fixture(database);
		CapturedEvent first = event("orders", "k1", "OrderPlaced", "{\"n\":1}");
		CapturedEvent second = event("orders", "k2", "OrderPlaced", "{\"n\":2}");
		CapturedEvent third = event("orders", "k3", "OrderPlaced", "{\"n\":3}");
		fixture.store.insert(List.of(first, second, third), Duration.ZERO);
		fixture.store.markPublished(List.of(first.id(), second.id(), third.id()));

		List<UUID> copies = fixture.administration.republish(query(null, "OrderPlaced", null, null), "orders-replay", 2);

		assertThat(copies).hasSize(2);
		assertThat(copies.stream().map((id) -> fixture.search.find(id, true)).toList()).allSatisfy(
				(copy) -> assertThat(copy.destination()).isEqualTo("orders-replay"))
			.extracting(StoredEvent::payload)
			.containsExactly("{\"n\":1}", "{\"n\":2}");
		assertThat(fixture.administration.republish(query(null, "OrderCancelled", null, null), null, 10)).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void republishRefusesANonPositiveLimitABlankDestinationAndOneTheTransportRefusesCopyingNothing(
			TestDatabase database) {
		Fixture fixture = new Fixture(database);
		CapturedEvent published = event("orders", "k1", "OrderPlaced", "{}");
		CapturedEvent refusing = new CapturedEvent(UUID.randomUUID(), "Order", "k2", "OrderPlaced", REFUSING, "orders",
				"k2", "{}", Map.of());
		fixture.store.insert(List.of(published, refusing), Duration.ZERO);
		fixture.store.markPublished(List.of(published.id(), refusing.id()));
		EventQuery placed = query(null, "OrderPlaced", null, null);

		assertThatIllegalArgumentException().isThrownBy(() -> fixture.administration.republish(placed, null, 0))
			.withMessage("The limit of a republish must be at least 1, not 0");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.administration.republish(placed, " ", 10))
			.withMessageStartingWith("The destination of a republish is blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> fixture.administration.republish(placed, "orders-replay", 10))
			.withMessage("'orders-replay' is not a destination of " + REFUSING);
		assertThat(fixture.search.find(EventQuery.all().withStatus(EventStatus.PENDING), 0, 10, false))
			.as("no copy of the rows before the refused one either")
			.isEmpty();
		assertThat(fixture.administration.republish(query(null, null, null, "k1"), "orders-replay", 10)).hasSize(1);
	}

	private static FailedAttempt dead(CapturedEvent event) {
		return new FailedAttempt(event.id(), true, Duration.ZERO, "broker said no");
	}

	private static EventQuery query(EventStatus status, String eventType, String destination, String key) {
		return new EventQuery(status, eventType, destination, key, null, null, null, null);
	}

	private static CapturedEvent event(String destination, String key, String eventType, String payload) {
		return new CapturedEvent(UUID.randomUUID(), "Order", key, eventType, "kafka", destination, key, payload,
				Map.of());
	}

	private static OutboxTransport transport(String name) {
		return new OutboxTransport() {

			@Override
			public String name() {
				return name;
			}

			@Override
			public CompletableFuture<?> send(OutboxMessage message) {
				throw new UnsupportedOperationException("Nothing is sent here");
			}

			@Override
			public void checkDestination(String destination) {
				if (name.equals(REFUSING)) {
					throw new IllegalArgumentException("'" + destination + "' is not a destination of " + name);
				}
			}

		};
	}

	private static List<UUID> ids(List<StoredEvent> events) {
		return events.stream().map(StoredEvent::id).toList();
	}

	private static final class Fixture {

		private final OutboxTestTable outbox;

		private final OutboxStore store;

		private final EventSearch search;

		private final DefaultOutboxAdministration administration;

		Fixture(TestDatabase database) {
			this.outbox = OutboxTestTable.prepare(database, TABLE);
			this.store = this.outbox.store();
			this.search = new EventSearch(this.outbox.dataSource(), this.outbox.vendor(), TABLE, new JsonMapper());
			AdministeredTable table = new AdministeredTable(this.outbox.storedEvents(), this.search, this.store,
					this.outbox.transactions());
			this.administration = new DefaultOutboxAdministration(() -> List.of(table),
					new OutboxTransports(List.of(transport("kafka"), transport(REFUSING)), List.of()));
		}

	}

}
