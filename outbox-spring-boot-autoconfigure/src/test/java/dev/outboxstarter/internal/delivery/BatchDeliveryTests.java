package dev.outboxstarter.internal.delivery;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.sql.DataSource;

import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.FailedAttempt;
import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.PublishPath;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * How one batch is sent: per-key order kept whatever the transport, a key stopped at its first
 * failure, and a bounded wait. On a real (embedded) database, with in-memory transports.
 */
@ExtendWith(OutputCaptureExtension.class)
public class BatchDeliveryTests {

	/** Ten attempts, a minute apart at first: no test waits out a backoff. */
	private static final RetryPolicy TEN_ATTEMPTS = new RetryPolicy(Duration.ofMinutes(1), 2, Duration.ofMinutes(5), 0,
			10);

	private static final String TABLE = "outbox_delivery_it";

	private final ScheduledExecutorService broker = Executors.newSingleThreadScheduledExecutor();

	private OutboxTestTable outbox;

	private OutboxStore store;

	/** What the latest delivery this test made found unavailable. */
	private Outages outages;

	@BeforeEach
	void prepare() {
		this.outbox = OutboxTestTable.prepare(TestDatabase.H2, TABLE);
		this.store = this.outbox.store();
	}

	@AfterEach
	void stopBroker() {
		this.broker.shutdownNow();
	}

	@Test
	void keyOfATransportThatDoesNotKeepOrderIsSentOneMessageAtATime() {
		InMemoryTransport transport = new InMemoryTransport("queue", false, (message) -> true);
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		CapturedEvent k3 = event("queue", "q", "K");
		CapturedEvent l1 = event("queue", "q", "L");
		insert(k1, k2, k3, l1);

		DeliveryResult result = delivery(transport, Duration.ofSeconds(5)).deliver(PublishPath.RELAY,
				due());

		assertThat(result.published()).isEqualTo(4);
		assertThat(transport.sent).containsExactly(k1.id(), l1.id(), k2.id(), k3.id());
		assertThat(transport.ackedBeforeSending.get(k2.id())).contains(k1.id());
		assertThat(transport.ackedBeforeSending.get(k3.id())).contains(k1.id(), k2.id());
	}

	@Test
	void transportThatKeepsKeyOrderGetsAKeysWholeRunAtOnce() {
		InMemoryTransport transport = new InMemoryTransport("log", true, null);
		CapturedEvent k1 = event("log", "t", "K");
		CapturedEvent k2 = event("log", "t", "K");
		CapturedEvent k3 = event("log", "t", "K");
		insert(k1, k2, k3);
		ScheduledFuture<?> broker = answerOnceItHolds(transport, 3, (id) -> true);
		DeliveryResult result;
		try {
			result = delivery(transport, Duration.ofSeconds(5)).deliver(PublishPath.RELAY, due());
		}
		finally {
			broker.cancel(false);
		}

		assertThat(transport.sent).containsExactly(k1.id(), k2.id(), k3.id());
		assertThat(result.published()).isEqualTo(3);
	}

	/**
	 * Kafka's producer may fail a message appended to an older producer batch, which holds a send a batch
	 * stopped waiting for, and deliver the next message of its key from a newer one: sent at once, the
	 * second would arrive first.
	 */
	@Test
	void whileASendAnEarlierBatchStoppedWaitingForIsUnresolvedAKeysRunGoesOneMessageAtATimeThenAtOnceAgain() {
		InMemoryTransport log = new InMemoryTransport("log", true, null);
		BatchDelivery delivery = delivery(log, Duration.ofMillis(300));
		CapturedEvent stale = event("log", "t", "S");
		insert(stale);
		delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(stale)));
		CapturedEvent k1 = event("log", "t", "K");
		CapturedEvent k2 = event("log", "t", "K");
		insert(k1, k2);
		log.accepts = (message) -> !message.id().equals(stale.id());

		assertThat(delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1, k2))).published())
			.isEqualTo(2);
		assertThat(log.sent).containsExactly(stale.id(), k1.id(), k2.id());
		assertThat(log.ackedBeforeSending.get(k2.id())).as("acknowledged before K's second message was sent")
			.contains(k1.id());

		log.acknowledgePending();
		log.accepts = null;
		CapturedEvent k3 = event("log", "t", "K");
		CapturedEvent k4 = event("log", "t", "K");
		insert(k3, k4);
		ScheduledFuture<?> broker = answerOnceItHolds(log, 2, (id) -> true);
		try {
			assertThat(delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k3, k4))).published())
				.as("K's run sent at once, answered only once both were sent")
				.isEqualTo(2);
		}
		finally {
			broker.cancel(false);
		}
	}

	@Test
	void aRoundThatStartsWhileAnotherBatchAwaitsItsSendTakesOneMessageOfEachKey() {
		InMemoryTransport log = new InMemoryTransport("log", true, null);
		BatchDelivery delivery = delivery(log, Duration.ofSeconds(3));
		CapturedEvent awaited = event("log", "t", "A");
		insert(awaited);
		CompletableFuture<DeliveryResult> other = CompletableFuture
			.supplyAsync(() -> delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(awaited))));
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> log.sent.contains(awaited.id()));
		CapturedEvent k1 = event("log", "t", "K");
		CapturedEvent k2 = event("log", "t", "K");
		insert(k1, k2);
		log.accepts = (message) -> true;
		try {
			assertThat(delivery.deliver(PublishPath.RELAY, (store) -> store.claimCaptured(List.of(k1, k2))).published())
				.isEqualTo(2);
			assertThat(log.ackedBeforeSending.get(k2.id())).as("acknowledged before K's second message was sent")
				.contains(k1.id());
		}
		finally {
			log.acknowledgePending();
		}
		assertThat(other.join().published()).isOne();
	}

	@Test
	void keyStopsAtItsFirstFailureAndTheRestStaysPendingUntouched() {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		CapturedEvent l1 = event("queue", "q", "L");
		insert(k1, k2, l1);
		InMemoryTransport transport = new InMemoryTransport("queue", false, (message) -> !message.id().equals(k1.id()));

		DeliveryResult result = delivery(transport, Duration.ofSeconds(5)).deliver(PublishPath.RELAY,
				due());

		assertThat(result).isEqualTo(new DeliveryResult(3, 1, 1));
		assertThat(transport.sent).containsExactly(k1.id(), l1.id());
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(k1.id()).attempts()).isEqualTo(1);
		assertThat(this.outbox.row(k1.id()).lastError()).contains("refused " + k1.id());
		assertThat(this.outbox.row(k2.id()).attempts()).isZero();
		assertThat(this.outbox.row(k2.id()).lastError()).isNull();
		assertThat(this.outbox.row(l1.id()).status()).isEqualTo("PUBLISHED");
	}

	@Test
	void tablesOfOneDataSourceDeliveredTogetherTakeOneTransactionAndEachRecordsOnlyItsOwnRows() {
		AtomicInteger connections = new AtomicInteger();
		DataSource dataSource = new DelegatingDataSource(this.outbox.dataSource()) {

			@Override
			public Connection getConnection() throws SQLException {
				connections.incrementAndGet();
				return super.getConnection();
			}

		};
		OutboxTestTable otherTable = OutboxTestTable.prepare(TestDatabase.H2, TABLE + "_other");
		OutboxStore otherStore = otherTable.store(dataSource, KeyOrdering.PER_KEY);
		CapturedEvent mine = event("queue", "q", "K");
		CapturedEvent refused = event("queue", "q", "L");
		CapturedEvent theirs = event("queue", "q", "M");
		insert(mine);
		otherTable.insert(otherStore, Duration.ZERO, refused, theirs);
		InMemoryTransport transport = new InMemoryTransport("queue", false,
				(message) -> !message.id().equals(refused.id()));
		this.outages = new Outages(TEN_ATTEMPTS);
		BatchDelivery delivery = new BatchDelivery(this.outbox.store(dataSource, KeyOrdering.PER_KEY),
				Map.of("queue", transport), TEN_ATTEMPTS, Duration.ofSeconds(5), true,
				OutboxTestTable.transactions(dataSource), List.of(), this.outages);
		BatchDelivery otherDelivery = new BatchDelivery(otherStore, Map.of("queue", transport), TEN_ATTEMPTS,
				Duration.ofSeconds(5), true, OutboxTestTable.transactions(dataSource), List.of(), this.outages);
		Map<BatchDelivery, Function<OutboxStore, ClaimedBatch>> claims = new LinkedHashMap<>();
		claims.put(delivery, due());
		claims.put(otherDelivery, due());
		connections.set(0);

		DeliveryResult result = delivery.deliverTogether(PublishPath.FAST, claims);

		assertThat(result).isEqualTo(new DeliveryResult(3, 2, 1));
		assertThat(connections).hasValue(1);
		assertThat(this.outbox.row(mine.id()).status()).isEqualTo("PUBLISHED");
		assertThat(otherTable.row(theirs.id()).status()).isEqualTo("PUBLISHED");
		assertThat(otherTable.row(refused.id()).status()).isEqualTo("PENDING");
		assertThat(otherTable.row(refused.id()).attempts()).isEqualTo(1);
		assertThat(otherTable.row(refused.id()).lastError()).contains("refused " + refused.id());
	}

	@Test
	void tablesOfDifferentDataSourcesAreNotDeliveredTogether() {
		OutboxTestTable otherTable = OutboxTestTable.prepare(TestDatabase.H2, TABLE + "_other");
		InMemoryTransport transport = new InMemoryTransport("queue", false, (message) -> true);
		BatchDelivery delivery = delivery(transport, Duration.ofSeconds(5));
		BatchDelivery otherDelivery = otherTable.delivery(transport);
		Map<BatchDelivery, Function<OutboxStore, ClaimedBatch>> claims = new LinkedHashMap<>();
		claims.put(delivery, due());
		claims.put(otherDelivery, due());

		assertThat(delivery.sharesTransactionsWith(otherDelivery)).isFalse();
		assertThatIllegalArgumentException().isThrownBy(() -> delivery.deliverTogether(PublishPath.FAST, claims));
	}

	@Test
	void messageNotAcknowledgedWithinThePublishTimeoutIsStillInFlightNotAFailedAttempt() {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);
		InMemoryTransport silent = new InMemoryTransport("queue", false, null);

		DeliveryResult result = delivery(silent, Duration.ofMillis(200)).deliver(PublishPath.FAST,
				(store) -> store.claimCaptured(List.of(k1, k2)));

		assertThat(result).isEqualTo(new DeliveryResult(2, 0, 0));
		assertThat(silent.sent).containsExactly(k1.id());
		OutboxTestTable.Row row = this.outbox.row(k1.id());
		assertThat(row.status()).isEqualTo("PENDING");
		assertThat(row.attempts()).isZero();
		assertThat(row.lastError()).startsWith("Sent, not acknowledged within outbox.publish-timeout (PT0.2S)");
		assertThat(this.outbox.row(k2.id()).attempts()).isZero();
		assertThat(this.outages.unavailableTransports()).isEmpty();
	}

	@Test
	void messageStillInFlightIsNotSentAgainNorCountedAsAnAttemptHoweverOftenItIsClaimed(CapturedOutput output) {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);
		InMemoryTransport silent = new InMemoryTransport("queue", false, null);
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofMillis(50), silent);

		for (int i = 0; i < 3; i++) {
			delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1, k2)));
		}

		assertThat(silent.sent).containsExactly(k1.id());
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(k1.id()).attempts()).isZero();
		assertThat(this.outbox.row(k2.id()).attempts()).isZero();
		assertThat(this.outages.unavailableTransports()).isEmpty();
		assertThat(output.getAll()).doesNotContain("is unavailable");
	}

	@Test
	void messageAcknowledgedAfterThePublishTimeoutIsMarkedPublishedByTheNextClaimWithoutBeingSentAgain() {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);
		InMemoryTransport late = new InMemoryTransport("queue", false, null);
		RecordingListener listener = new RecordingListener();
		RetryPolicy quickRetries = new RetryPolicy(Duration.ofMillis(1), 1, Duration.ofMillis(1), 0, 10);
		BatchDelivery delivery = new BatchDelivery(this.store, Map.of("queue", late), quickRetries,
				Duration.ofMillis(100), true, this.outbox.transactions(), List.of(listener), new Outages(quickRetries));
		assertThat(delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1, k2))).published())
			.isZero();
		late.accepts = (message) -> true;
		late.acknowledgePending();

		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> delivery.deliver(PublishPath.RELAY, due()).published() > 0);

		assertThat(late.sent).containsExactly(k1.id(), k2.id());
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PUBLISHED");
		assertThat(this.outbox.row(k1.id()).attempts()).isZero();
		assertThat(this.outbox.row(k2.id()).status()).isEqualTo("PUBLISHED");
		assertThat(listener.published).containsExactly(k1.id(), k2.id());
		assertThat(listener.failed).isEmpty();
	}

	@Test
	void messageFailingAfterThePublishTimeoutHasItsFailureRecordedByTheNextClaimAsItsAttempt() {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);
		InMemoryTransport late = new InMemoryTransport("queue", false, null);
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofMillis(100), late);
		delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1, k2)));
		late.refusePending();

		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> delivery.deliver(PublishPath.RELAY, due()).failed() > 0);

		assertThat(late.sent).containsExactly(k1.id());
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("DEAD");
		assertThat(this.outbox.row(k1.id()).lastError()).contains("refused " + k1.id());
		assertThat(this.outbox.row(k2.id()).attempts()).as("not sent after its key's failure").isZero();
	}

	@Test
	void interruptedWaitForAcknowledgementsCountsNoAttemptAndNeverMakesTheEventDead() throws InterruptedException {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent l1 = event("queue", "q", "L");
		insert(k1, l1);
		InMemoryTransport silent = new InMemoryTransport("queue", false, null);
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofMinutes(1), silent);
		Thread publishing = new Thread(
				() -> delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1, l1))));
		publishing.start();
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> silent.sent.size() == 2);

		publishing.interrupt();
		publishing.join(Duration.ofSeconds(10).toMillis());

		assertThat(publishing.isAlive()).as("the interrupted batch ended").isFalse();
		for (CapturedEvent event : List.of(k1, l1)) {
			OutboxTestTable.Row row = this.outbox.row(event.id());
			assertThat(row.status()).isEqualTo("PENDING");
			assertThat(row.attempts()).isZero();
		}
		assertThat(this.outages.unavailableTransports()).isEmpty();
	}

	@Test
	void transportWithNoRoomLeavesItsEventsPendingWithoutAnAttemptAndIsNotAnOutage(CapturedOutput output) {
		CapturedEvent k1 = event("full", "q", "K");
		CapturedEvent l1 = event("full", "q", "L");
		CapturedEvent m1 = event("queue", "q", "M");
		insert(k1, l1, m1);
		InMemoryTransport queue = new InMemoryTransport("queue", false, (message) -> true);
		List<UUID> refused = new CopyOnWriteArrayList<>();
		OutboxTransport full = new ForwardingOutboxTransport(new InMemoryTransport("full", false, (message) -> true)) {

			@Override
			public String name() {
				return "full";
			}

			@Override
			public CompletableFuture<?> send(OutboxMessage message) {
				refused.add(message.id());
				throw new RejectedExecutionException("queue full");
			}

		};
		RecordingListener listener = new RecordingListener();
		this.outages = new Outages(oneAttempt());
		BatchDelivery delivery = new BatchDelivery(this.store, Map.of("full", full, "queue", queue), oneAttempt(),
				Duration.ofSeconds(5), true, this.outbox.transactions(), List.of(listener), this.outages);

		DeliveryResult result = delivery.deliver(PublishPath.RELAY, due());

		assertThat(result).isEqualTo(new DeliveryResult(3, 1, 0));
		assertThat(refused).containsExactly(k1.id());
		OutboxTestTable.Row row = this.outbox.row(k1.id());
		assertThat(row.status()).isEqualTo("PENDING");
		assertThat(row.attempts()).isZero();
		assertThat(row.lastError()).startsWith("Not sent: transport 'full' had no room for it");
		assertThat(row.availableAt()).isAfter(this.outbox.databaseNow().plusSeconds(30));
		assertThat(this.outbox.row(l1.id()).lastError()).isNull();
		assertThat(this.outbox.row(m1.id()).status()).isEqualTo("PUBLISHED");
		assertThat(listener.postponed).containsExactly(k1.id());
		assertThat(this.outages.unavailableTransports()).isEmpty();
		assertThat(output.getAll()).doesNotContain("is unavailable");
	}

	@Test
	void withoutOrderingEveryMessageIsSentAtOnceAndAFailureStopsNothing() {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);
		InMemoryTransport transport = new InMemoryTransport("queue", false, null);
		BatchDelivery unordered = new BatchDelivery(this.store, Map.of("queue", transport), TEN_ATTEMPTS,
				Duration.ofSeconds(5), false, this.outbox.transactions(), List.of(), new Outages(TEN_ATTEMPTS));
		ScheduledFuture<?> broker = answerOnceItHolds(transport, 2, (id) -> !id.equals(k1.id()));

		DeliveryResult result;
		try {
			result = unordered.deliver(PublishPath.RELAY, due());
		}
		finally {
			broker.cancel(false);
		}

		assertThat(result).isEqualTo(new DeliveryResult(2, 1, 1));
		assertThat(transport.sent).containsExactly(k1.id(), k2.id());
		assertThat(this.outbox.row(k2.id()).status()).isEqualTo("PUBLISHED");
	}

	@Test
	void unavailableTransportIsNotAskedAgainInTheBatchOnceASecondDestinationFailsWithNothingAcknowledged() {
		CapturedEvent k1 = event("down", "t", "K");
		CapturedEvent k2 = event("down", "t", "K2");
		CapturedEvent l1 = event("down", "u", "L");
		CapturedEvent n1 = event("down", "v", "N");
		CapturedEvent m1 = event("queue", "q", "M");
		insert(k1, k2, l1, n1, m1);
		RefusingTransport down = RefusingTransport.unreachable("down", null);
		InMemoryTransport queue = new InMemoryTransport("queue", false, (message) -> true);
		BatchDelivery delivery = delivery(TEN_ATTEMPTS, Duration.ofSeconds(5), down, queue);

		DeliveryResult result = delivery.deliver(PublishPath.RELAY, due());

		assertThat(result).isEqualTo(new DeliveryResult(5, 1, 2));
		assertThat(down.refused).containsExactly(k1.id(), l1.id());
		assertThat(this.outbox.row(k1.id()).attempts()).isEqualTo(1);
		assertThat(this.outbox.row(l1.id()).attempts()).isEqualTo(1);
		assertThat(this.outbox.row(k2.id()).attempts()).isZero();
		assertThat(this.outbox.row(n1.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(n1.id()).attempts()).isZero();
		assertThat(this.outbox.row(m1.id()).status()).isEqualTo("PUBLISHED");
		assertThat(this.outages.unavailableTransports()).containsExactly("down");
		assertThat(this.outages.pausedDestinations()).isEmpty();
	}

	@Test
	void destinationUnavailableWhileItsTransportAcknowledgesOthersPausesAloneAndIsNeverDead() {
		CapturedEvent m1 = event("log", "missing", "A");
		CapturedEvent k1 = event("log", "t", "K");
		CapturedEvent l1 = event("log", "t", "L");
		insert(m1, k1, l1);
		TopicsTransport transport = new TopicsTransport("missing");
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofSeconds(5), transport);

		DeliveryResult first = delivery.deliver(PublishPath.FAST,
				(store) -> store.claimCaptured(List.of(m1, k1, l1)));
		CapturedEvent m2 = event("log", "missing", "B");
		CapturedEvent k2 = event("log", "t", "K");
		insert(m2, k2);
		DeliveryResult second = delivery.deliver(PublishPath.FAST,
				(store) -> store.claimCaptured(List.of(m2, k2)));

		assertThat(first).isEqualTo(new DeliveryResult(3, 2, 1));
		assertThat(second).isEqualTo(new DeliveryResult(2, 1, 0));
		assertThat(transport.refused).containsExactly(m1.id());
		assertThat(transport.broker.sent).containsExactly(k1.id(), l1.id(), k2.id());
		assertThat(this.outbox.row(m1.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(m1.id()).lastError()).contains("Topic missing not present in metadata");
		assertThat(this.outbox.row(m2.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(m2.id()).lastError()).contains("Not sent: its destination is paused until");
		// The pause, a minute, and not resumed by the acknowledgements of the transport's other destination.
		Instant inHalfAMinute = this.outbox.databaseNow().plusSeconds(30);
		assertThat(this.outbox.row(m1.id()).availableAt()).isAfter(inHalfAMinute);
		assertThat(this.outbox.row(m2.id()).availableAt()).isAfter(inHalfAMinute);
		assertThat(this.outages.pausedDestinations()).singleElement().satisfies((paused) -> {
			assertThat(paused.transport()).isEqualTo("log");
			assertThat(paused.destination()).isEqualTo("missing");
			assertThat(paused.until()).isAfter(Instant.now().plusSeconds(30));
			assertThat(paused.pauses()).isOne();
			assertThat(paused.error()).contains("Topic missing not present in metadata");
		});
		assertThat(this.outages.unavailableTransports()).isEmpty();
	}

	@Test
	void destinationFailingAfterItsTransportAcknowledgedAnotherInTheSameBatchPausesAloneEvenIfTheAckCameFirst() {
		CapturedEvent k1 = event("log", "t", "K");
		CapturedEvent m1 = event("log", "missing", "A");
		insert(k1, m1);
		TopicsTransport transport = new TopicsTransport("missing");
		transport.broker.acknowledgesAtOnce = true;
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofSeconds(5), transport);

		DeliveryResult result = delivery.deliver(PublishPath.RELAY, due());

		assertThat(result).isEqualTo(new DeliveryResult(2, 1, 1));
		assertThat(transport.refused).containsExactly(m1.id());
		assertThat(this.outages.unavailableTransports()).isEmpty();
		assertThat(this.outages.pausedDestinations()).singleElement()
			.satisfies((paused) -> assertThat(paused.destination()).isEqualTo("missing"));
	}

	@Test
	void eventOfAPausedDestinationIsPostponedUnsentWithoutCountingAnAttemptOrAFailure() {
		CapturedEvent m1 = event("log", "missing", "A");
		CapturedEvent k1 = event("log", "t", "K");
		insert(m1, k1);
		TopicsTransport transport = new TopicsTransport("missing");
		RecordingListener listener = new RecordingListener();
		this.outages = new Outages(oneAttempt());
		BatchDelivery delivery = new BatchDelivery(this.store, Map.of("log", transport), oneAttempt(),
				Duration.ofSeconds(5), true, this.outbox.transactions(), List.of(listener), this.outages);
		delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(m1, k1)));
		CapturedEvent m2 = event("log", "missing", "B");
		insert(m2);

		DeliveryResult postponed = delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(m2)));
		DeliveryResult postponedAgain = delivery.deliver(PublishPath.RELAY,
				(store) -> store.claimCaptured(List.of(m2)));

		assertThat(postponed).isEqualTo(new DeliveryResult(1, 0, 0));
		assertThat(postponedAgain).isEqualTo(new DeliveryResult(1, 0, 0));
		assertThat(transport.refused).containsExactly(m1.id());
		OutboxTestTable.Row row = this.outbox.row(m2.id());
		assertThat(row.status()).isEqualTo("PENDING");
		assertThat(row.attempts()).as("attempts of an event never sent").isZero();
		assertThat(row.lastError()).startsWith("Not sent: its destination is paused until")
			.contains("Topic missing not present in metadata");
		assertThat(row.availableAt()).isAfter(this.outbox.databaseNow().plusSeconds(30));
		assertThat(listener.failed).containsExactly(m1.id());
		assertThat(listener.postponed).containsExactly(m2.id(), m2.id());
	}

	@Test
	void destinationUnavailableAloneWithTooManyPausedAlreadyBacksOffUnpausedAndHoldsUpNothingElse() {
		CapturedEvent m1 = event("log", "missing", "A");
		CapturedEvent k1 = event("log", "t", "K");
		insert(m1, k1);
		TopicsTransport transport = new TopicsTransport("missing");
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofSeconds(5), transport);
		for (int i = 0; i < Outages.MAX_PAUSED_DESTINATIONS; i++) {
			this.outages.pause(new Destination("log", "paused-" + i), "earlier", System.nanoTime());
		}

		DeliveryResult result = delivery.deliver(PublishPath.FAST,
				(store) -> store.claimCaptured(List.of(m1, k1)));

		assertThat(result).isEqualTo(new DeliveryResult(2, 1, 1));
		OutboxTestTable.Row row = this.outbox.row(m1.id());
		assertThat(row.status()).isEqualTo("PENDING");
		assertThat(row.attempts()).isOne();
		assertThat(row.lastError()).contains("Topic missing not present in metadata");
		assertThat(row.availableAt()).isAfter(this.outbox.databaseNow().plusSeconds(30));
		assertThat(this.outages.pausedDestinations()).hasSize(Outages.MAX_PAUSED_DESTINATIONS)
			.noneMatch((paused) -> paused.destination().equals("missing"));
		assertThat(this.outages.unavailableTransports()).isEmpty();
	}

	@Test
	void pausedDestinationIsTriedAgainAfterItsPauseAndItsWaitingEventsAreDueOnceItAcknowledges() {
		CapturedEvent m1 = event("log", "missing", "A");
		CapturedEvent m2 = event("log", "missing", "B");
		CapturedEvent k1 = event("log", "t", "K");
		insert(m1, k1);
		TopicsTransport transport = new TopicsTransport("missing");
		RetryPolicy shortPauses = new RetryPolicy(Duration.ofMillis(200), 2, Duration.ofMinutes(5), 0, 10);
		BatchDelivery delivery = delivery(shortPauses, Duration.ofSeconds(5), transport);
		assertThat(delivery.deliver(PublishPath.RELAY, due()).failed()).isOne();
		// An event of the destination that waits out a long backoff, from an outage before.
		insert(m2);
		this.outbox.transactions()
			.executeWithoutResult((status) -> this.store
				.markFailed(List.of(new FailedAttempt(m2.id(), false, Duration.ofMinutes(5), "earlier outage"))));
		transport.create("missing");

		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> delivery.deliver(PublishPath.RELAY, due()).published() > 0);
		DeliveryResult resumed = delivery.deliver(PublishPath.RELAY, due());

		assertThat(resumed.published()).isOne();
		assertThat(transport.broker.sent).containsExactly(k1.id(), m1.id(), m2.id());
		assertThat(this.outbox.row(m2.id()).status()).isEqualTo("PUBLISHED");
		assertThat(this.outages.pausedDestinations()).isEmpty();
	}

	@Test
	void messageRefusedForItsOwnSakeStopsOnlyItsKey() {
		CapturedEvent k1 = event("log", "t", "K");
		CapturedEvent k2 = event("log", "t", "K");
		CapturedEvent l1 = event("log", "t", "L");
		insert(k1, k2, l1);
		RefusingTransport tooLarge = new RefusingTransport("log", null, false);
		BatchDelivery delivery = delivery(TEN_ATTEMPTS, Duration.ofSeconds(5), tooLarge);

		DeliveryResult result = delivery.deliver(PublishPath.RELAY, due());

		assertThat(result).isEqualTo(new DeliveryResult(3, 0, 2));
		assertThat(tooLarge.refused).containsExactly(k1.id(), l1.id());
		assertThat(this.outbox.row(k2.id()).attempts()).isZero();
	}

	@Test
	void eventIsNeverDeadFromAttemptsThatFoundItsTransportUnavailable() {
		CapturedEvent k1 = event("down", "t", "K");
		insert(k1);
		RefusingTransport down = RefusingTransport.unreachable("down", null);
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofSeconds(5), down);

		for (int i = 0; i < 3; i++) {
			delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1)));
		}

		assertThat(down.refused).hasSize(3);
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(k1.id()).attempts()).isEqualTo(3);
		assertThat(this.outbox.row(k1.id()).lastError()).contains("no metadata within max.block.ms");
	}

	@Test
	void outageIsLoggedOnceWhenItStartsAndOnceWhenItEndsHoweverManyAttemptsFailOnBothPaths(CapturedOutput output)
			throws Exception {
		CapturedEvent k1 = event("down", "t", "K");
		CapturedEvent l1 = event("down", "u", "L");
		insert(k1, l1);
		RefusingTransport down = RefusingTransport.unreachable("down", new InMemoryTransport("down", true, (m) -> true));
		BatchDelivery delivery = delivery(TEN_ATTEMPTS, Duration.ofSeconds(5), down);

		ExecutorService paths = Executors.newFixedThreadPool(2);
		try {
			List<Future<?>> attempts = new ArrayList<>();
			for (CapturedEvent event : List.of(k1, l1)) {
				attempts.add(paths.submit(() -> {
					for (int i = 0; i < 10; i++) {
						delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(event)));
					}
				}));
			}
			for (Future<?> attempt : attempts) {
				attempt.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			paths.shutdownNow();
		}
		down.reachable = true;
		delivery.deliver(PublishPath.RELAY, (store) -> store.claimCaptured(List.of(k1, l1)));

		assertThat(down.refused).hasSize(20);
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PUBLISHED");
		assertThat(output.getAll().lines().filter((line) -> line.contains("Outbox transport 'down'")))
			.satisfiesExactly(
					(warning) -> assertThat(warning).contains("WARN")
						.contains("is unavailable (java.lang.IllegalStateException: no metadata within max.block.ms)"),
					(info) -> assertThat(info).contains("INFO").contains("takes messages again after being unavailable"));
	}

	@Test
	void eventFailingForItsOwnSakeIsDeadOnceItsAttemptsAreUsedUp() {
		CapturedEvent k1 = event("queue", "q", "K");
		insert(k1);
		InMemoryTransport refusing = new InMemoryTransport("queue", false, (message) -> false);
		BatchDelivery delivery = delivery(oneAttempt(), Duration.ofSeconds(5), refusing);

		delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1)));

		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("DEAD");
		assertThat(this.outbox.row(k1.id()).lastError()).contains("refused " + k1.id());
	}

	@Test
	void messageRefusedInAWayNoRetryCanFixIsDeadAtOnceAndItsKeyMovesOn() {
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);
		OutboxTransport tooLarge = new ForwardingOutboxTransport(new InMemoryTransport("queue", false, (message) -> true)) {

			@Override
			public CompletableFuture<?> send(OutboxMessage message) {
				return message.id().equals(k1.id())
						? CompletableFuture.failedFuture(new IllegalStateException("record too large"))
						: super.send(message);
			}

			@Override
			public boolean isPermanent(Throwable failure) {
				return failure.getMessage().contains("too large");
			}

		};
		BatchDelivery delivery = delivery(TEN_ATTEMPTS, Duration.ofSeconds(5), tooLarge);

		assertThat(delivery.deliver(PublishPath.RELAY, due())).isEqualTo(new DeliveryResult(2, 0, 1));
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("DEAD");
		assertThat(this.outbox.row(k1.id()).attempts()).isOne();
		assertThat(this.outbox.row(k1.id()).lastError()).contains("record too large");
		assertThat(this.outbox.row(k2.id()).attempts()).as("not sent after its key's failure").isZero();

		assertThat(delivery.deliver(PublishPath.RELAY, due()).published()).isOne();
		assertThat(this.outbox.row(k2.id()).status()).isEqualTo("PUBLISHED");
	}

	@Test
	void failureThatSaysTheBrokerIsUnavailableIsNeverPermanent() {
		CapturedEvent k1 = event("down", "t", "K");
		insert(k1);
		OutboxTransport down = new ForwardingOutboxTransport(RefusingTransport.unreachable("down", null)) {

			@Override
			public boolean isPermanent(Throwable failure) {
				return true;
			}

		};

		delivery(TEN_ATTEMPTS, Duration.ofSeconds(5), down).deliver(PublishPath.RELAY, due());

		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PENDING");
	}

	@Test
	void rowsBackingOffAfterTheirTransportRefusedAreDueOnceItAcknowledgesAgain() {
		CapturedEvent k1 = event("log", "t", "K");
		insert(k1);
		InMemoryTransport broker = new InMemoryTransport("log", true, (message) -> true);
		RefusingTransport transport = RefusingTransport.unreachable("log", broker);
		BatchDelivery delivery = delivery(TEN_ATTEMPTS, Duration.ofSeconds(5), transport);
		assertThat(delivery.deliver(PublishPath.RELAY, due()).failed()).isOne();
		CapturedEvent l1 = event("log", "t", "L");
		insert(l1);
		transport.reachable = true;

		assertThat(delivery.deliver(PublishPath.RELAY, due()).published()).isOne();
		DeliveryResult resumed = delivery.deliver(PublishPath.RELAY, due());

		assertThat(resumed.published()).isOne();
		assertThat(broker.sent).containsExactly(l1.id(), k1.id());
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PUBLISHED");
	}

	@Test
	void fastPathPublishesTheRunOfAKeyItClaimedWholeInOrder() {
		InMemoryTransport transport = new InMemoryTransport("queue", false, (message) -> true);
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		insert(k1, k2);

		DeliveryResult result = delivery(transport, Duration.ofSeconds(5)).deliver(PublishPath.FAST,
				(store) -> store.claimCaptured(List.of(k2, k1)));

		assertThat(result).isEqualTo(new DeliveryResult(2, 2, 0));
		assertThat(transport.sent).containsExactly(k1.id(), k2.id());
	}

	@Test
	void fastPathLeavesARowWhoseEarlierRowOfTheSameKeyItDidNotClaim() {
		InMemoryTransport transport = new InMemoryTransport("queue", false, (message) -> true);
		CapturedEvent k1 = event("queue", "q", "K");
		CapturedEvent k2 = event("queue", "q", "K");
		CapturedEvent l1 = event("queue", "q", "L");
		insert(k1, k2, l1);

		DeliveryResult result = delivery(transport, Duration.ofSeconds(5)).deliver(PublishPath.FAST,
				(store) -> store.claimCaptured(List.of(k2, l1)));

		assertThat(result).isEqualTo(new DeliveryResult(2, 1, 0));
		assertThat(transport.sent).containsExactly(l1.id());
		assertThat(this.outbox.row(k2.id()).status()).isEqualTo("PENDING");
		assertThat(this.outbox.row(k2.id()).attempts()).isZero();
	}

	@Test
	void listenerThatThrowsNeitherFailsTheBatchNorKeepsItsOutcomeFromTheOtherListeners(CapturedOutput output) {
		CapturedEvent k1 = event("queue", "q", "K");
		insert(k1);
		InMemoryTransport transport = new InMemoryTransport("queue", false, (message) -> true);
		OutboxDeliveryListener throwing = new OutboxDeliveryListener() {

			@Override
			public void published(PublishPath path, String transport, OutboxMessage message, Instant acknowledgedAt) {
				throw new IllegalStateException("metrics registry closed");
			}

			@Override
			public String toString() {
				return "throwing listener";
			}

		};
		RecordingListener recording = new RecordingListener();
		BatchDelivery delivery = new BatchDelivery(this.store, Map.of("queue", transport), TEN_ATTEMPTS,
				Duration.ofSeconds(5), true, this.outbox.transactions(), List.of(throwing, recording),
				new Outages(TEN_ATTEMPTS));

		DeliveryResult result = delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(List.of(k1)));
		DeliveryResult relay = delivery.deliver(PublishPath.RELAY, due());

		assertThat(result).isEqualTo(new DeliveryResult(1, 1, 0));
		assertThat(relay).isEqualTo(new DeliveryResult(0, 0, 0));
		assertThat(transport.sent).containsExactly(k1.id());
		assertThat(this.outbox.row(k1.id()).status()).isEqualTo("PUBLISHED");
		assertThat(recording.published).containsExactly(k1.id());
		assertThat(output.getAll()).contains("throwing listener")
			.contains("java.lang.IllegalStateException: metrics registry closed");
	}

	private static RetryPolicy oneAttempt() {
		return new RetryPolicy(Duration.ofMinutes(1), 2, Duration.ofMinutes(5), 0, 1);
	}

	private static Function<OutboxStore, ClaimedBatch> due() {
		return (store) -> store.claimDue(10, 0);
	}

	private void insert(CapturedEvent... events) {
		this.outbox.insert(this.store, Duration.ZERO, events);
	}

	private BatchDelivery delivery(InMemoryTransport transport, Duration publishTimeout) {
		return delivery(TEN_ATTEMPTS, publishTimeout, transport);
	}

	/**
	 * Delivery with per-key ordering through the given transports, each under its own name.
	 */
	private BatchDelivery delivery(RetryPolicy retry, Duration publishTimeout, OutboxTransport... transports) {
		Map<String, OutboxTransport> byName = Stream.of(transports)
			.collect(Collectors.toMap(OutboxTransport::name, Function.identity()));
		this.outages = new Outages(retry);
		return new BatchDelivery(this.store, byName, retry, publishTimeout, true, this.outbox.transactions(),
				List.of(), this.outages);
	}

	/** Records which events each outcome was told for. */
	private static final class RecordingListener implements OutboxDeliveryListener {

		private final List<UUID> published = new CopyOnWriteArrayList<>();

		private final List<UUID> failed = new CopyOnWriteArrayList<>();

		@Override
		public void published(PublishPath path, String transport, OutboxMessage message, Instant acknowledgedAt) {
			this.published.add(message.id());
		}

		private final List<UUID> postponed = new CopyOnWriteArrayList<>();

		@Override
		public void failed(PublishPath path, String transport, OutboxMessage message, String error, boolean dead) {
			this.failed.add(message.id());
		}

		@Override
		public void postponed(PublishPath path, String transport, OutboxMessage message) {
			this.postponed.add(message.id());
		}

	}

	/**
	 * Throws from {@code send}: as Kafka's producer does when it has had no metadata within
	 * {@code max.block.ms} (the broker is unavailable), or because the message itself is refused (too
	 * large, say). Once reachable, hands messages to a broker.
	 */
	private static final class RefusingTransport implements OutboxTransport {

		private final String name;

		private final @Nullable InMemoryTransport broker;

		private final boolean unavailable;

		private final List<UUID> refused = new CopyOnWriteArrayList<>();

		private volatile boolean reachable;

		RefusingTransport(String name, @Nullable InMemoryTransport broker, boolean unavailable) {
			this.name = name;
			this.broker = broker;
			this.unavailable = unavailable;
		}

		static RefusingTransport unreachable(String name, @Nullable InMemoryTransport broker) {
			return new RefusingTransport(name, broker, true);
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public boolean isUnavailable(Throwable failure) {
			return this.unavailable;
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			if (!this.reachable || this.broker == null) {
				this.refused.add(message.id());
				throw new IllegalStateException(
						this.unavailable ? "no metadata within max.block.ms" : "record too large " + message.id());
			}
			return this.broker.send(message);
		}

	}

	/**
	 * A log (it keeps key order) whose broker takes messages to every destination but the missing
	 * ones, to which sends throw as Kafka's producer does for a topic that does not exist.
	 */
	private final class TopicsTransport implements OutboxTransport {

		private final InMemoryTransport broker = new InMemoryTransport("log", true, (message) -> true);

		private final Set<String> missing = ConcurrentHashMap.newKeySet();

		private final List<UUID> refused = new CopyOnWriteArrayList<>();

		TopicsTransport(String... missing) {
			this.missing.addAll(List.of(missing));
		}

		void create(String destination) {
			this.missing.remove(destination);
		}

		@Override
		public String name() {
			return "log";
		}

		@Override
		public boolean keepsKeyOrder() {
			return true;
		}

		@Override
		public boolean isUnavailable(Throwable failure) {
			return String.valueOf(failure.getMessage()).contains("not present in metadata");
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			if (this.missing.contains(message.destination())) {
				this.refused.add(message.id());
				throw new IllegalStateException("Topic " + message.destination() + " not present in metadata");
			}
			return this.broker.send(message);
		}

	}

	/**
	 * Has a transport that does not answer by itself answer its messages once it holds a number of them:
	 * a delivery that waited for an answer before sending the next of them gets none within the publish
	 * timeout, and sends fewer.
	 */
	private ScheduledFuture<?> answerOnceItHolds(InMemoryTransport transport, int count, Predicate<UUID> accepted) {
		return this.broker.scheduleWithFixedDelay(() -> {
			if (transport.unanswered.size() == count) {
				transport.answerPending(accepted);
			}
		}, 1, 1, TimeUnit.MILLISECONDS);
	}

	/**
	 * Acknowledges on another thread shortly after each send, as a broker would; while its acceptance
	 * is {@code null} it never acknowledges.
	 */
	private final class InMemoryTransport implements OutboxTransport {

		private final String name;

		private final boolean keepsKeyOrder;

		private volatile @Nullable Predicate<OutboxMessage> accepts;

		private final List<UUID> sent = new CopyOnWriteArrayList<>();

		private final Set<UUID> acked = ConcurrentHashMap.newKeySet();

		private final Map<UUID, Set<UUID>> ackedBeforeSending = new ConcurrentHashMap<>();

		/** Acknowledges on the sending thread, before {@code send} returns, as a broker close by may seem to. */
		private volatile boolean acknowledgesAtOnce;

		/** Sent while its acceptance was {@code null}, by message id. */
		private final Map<UUID, CompletableFuture<Object>> unanswered = new ConcurrentHashMap<>();

		InMemoryTransport(String name, boolean keepsKeyOrder, @Nullable Predicate<OutboxMessage> accepts) {
			this.name = name;
			this.keepsKeyOrder = keepsKeyOrder;
			this.accepts = accepts;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public boolean keepsKeyOrder() {
			return this.keepsKeyOrder;
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			this.sent.add(message.id());
			this.ackedBeforeSending.put(message.id(), Set.copyOf(new ArrayList<>(this.acked)));
			CompletableFuture<Object> acknowledgement = new CompletableFuture<>();
			Predicate<OutboxMessage> acceptance = this.accepts;
			if (acceptance == null) {
				this.unanswered.put(message.id(), acknowledgement);
				return acknowledgement;
			}
			if (this.acknowledgesAtOnce && acceptance.test(message)) {
				this.acked.add(message.id());
				return CompletableFuture.completedFuture(message.id());
			}
			BatchDeliveryTests.this.broker.schedule(() -> {
				if (acceptance.test(message)) {
					this.acked.add(message.id());
					acknowledgement.complete(message.id());
				}
				else {
					acknowledgement.completeExceptionally(new IllegalStateException("refused " + message.id()));
				}
			}, 20, TimeUnit.MILLISECONDS);
			return acknowledgement;
		}

		/** Acknowledges, late, every message sent while it did not answer. */
		void acknowledgePending() {
			answerPending((id) -> true);
		}

		/** Refuses, late, every message sent while it did not answer. */
		void refusePending() {
			answerPending((id) -> false);
		}

		/** Answers, late, every message sent while it did not answer: acknowledges or refuses it. */
		void answerPending(Predicate<UUID> accepted) {
			this.unanswered.forEach((id, acknowledgement) -> {
				if (accepted.test(id)) {
					acknowledgement.complete(id);
				}
				else {
					acknowledgement.completeExceptionally(new IllegalStateException("refused " + id));
				}
			});
			this.unanswered.clear();
		}

	}

}
