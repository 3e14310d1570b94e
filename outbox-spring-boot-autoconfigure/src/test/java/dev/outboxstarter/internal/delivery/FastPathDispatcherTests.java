package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.PublishPath;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several fast-path workers: batches in flight at once, and each key's events published by one worker
 * in commit order. On a real (embedded) database, with a transport that acknowledges a little later on
 * another thread, as a broker does.
 */
public class FastPathDispatcherTests {

	private static final String TABLE = "outbox_fast_path_it";

	private final ScheduledExecutorService broker = Executors.newSingleThreadScheduledExecutor();

	private final SlowTransport transport = new SlowTransport();

	private OutboxTestTable outbox;

	private FastPathDispatcher dispatcher;

	@BeforeEach
	void prepare() {
		this.outbox = OutboxTestTable.prepare(TestDatabase.H2, TABLE);
		this.dispatcher = new FastPathDispatcher(this.outbox.delivery(this.transport), 1000, 500, 2,
				Duration.ofSeconds(5), () -> {
					SimpleAsyncTaskScheduler workers = new SimpleAsyncTaskScheduler();
					workers.setThreadNamePrefix("outbox-fast-path-");
					return workers;
				});
		this.dispatcher.start();
	}

	@AfterEach
	void stop() {
		this.dispatcher.stop();
		this.broker.shutdownNow();
	}

	@Test
	void workersHaveBatchesOfDifferentKeysInFlightAtOnce() {
		List<CapturedEvent> events = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			events.add(event("queue", "q", "key-" + i));
		}

		commit(events);

		awaitPublished(events.stream().map(CapturedEvent::id).toList());
		assertThat(this.transport.sendingThreads).containsExactlyInAnyOrder("outbox-fast-path-1",
				"outbox-fast-path-2");
		assertThat(this.transport.mostBatchesInFlight).isEqualTo(2);
	}

	@Test
	void aKeysEventsCommittedOneAfterAnotherArePublishedInOrderByTheFastPath() {
		List<UUID> committed = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			// Other keys keep both workers busy while the key's events arrive.
			CapturedEvent step = event("queue", "q", "K");
			commit(List.of(step, event("queue", "q", "other-" + i)));
			committed.add(step.id());
		}

		// A key whose events two workers raced for would have some held back for the relay.
		awaitPublished(committed);
		assertThat(this.transport.sent.stream().filter(committed::contains).toList()).isEqualTo(committed);
	}

	@Test
	void eventsBeyondTheQueuedPayloadBudgetOverflowToTheRelay() {
		// Workers that never start: whatever is offered stays queued.
		FastPathDispatcher idle = new FastPathDispatcher(this.outbox.delivery(this.transport), 1000, 500, 1,
				Duration.ofSeconds(1), () -> new SimpleAsyncTaskScheduler() {

					@Override
					public void execute(Runnable task) {
					}

				});
		idle.start();
		String halfTheBudget = "x".repeat((int) (FastPathDispatcher.MAX_QUEUED_PAYLOAD_CHARS / 2));
		CapturedEvent first = withPayload(halfTheBudget);
		CapturedEvent second = withPayload(halfTheBudget);
		CapturedEvent beyond = withPayload("{}");

		idle.committed(List.of(first, second, beyond));

		assertThat(idle.queueSize()).isEqualTo(2);
		assertThat(idle.overflowCount()).isOne();
		idle.stop();
	}

	@Test
	void eventsOfSeveralTablesOfOneDataSourceQueuedTogetherArePublishedAsOneBatch() {
		List<DeliveryResult> batches = new CopyOnWriteArrayList<>();
		OutboxDeliveryListener listener = new OutboxDeliveryListener() {

			@Override
			public void delivered(PublishPath path, DeliveryResult result) {
				batches.add(result);
			}

		};
		RetryPolicy retry = new RetryPolicy(Duration.ofMinutes(1), 2, Duration.ofMinutes(5), 0, 10);
		Outages outages = new Outages(retry);
		List<OutboxTestTable> tables = new ArrayList<>();
		List<BatchDelivery> deliveries = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			OutboxTestTable table = OutboxTestTable.prepare(TestDatabase.H2, TABLE + "_" + i);
			tables.add(table);
			deliveries.add(new BatchDelivery(table.store(this.outbox.dataSource(), KeyOrdering.PER_KEY),
					Map.of("queue", this.transport), retry, Duration.ofSeconds(5), true,
					OutboxTestTable.transactions(this.outbox.dataSource()), List.of(listener), outages));
		}
		List<Runnable> worker = new CopyOnWriteArrayList<>();
		FastPathDispatcher dispatcher = new FastPathDispatcher(deliveries.get(0), 1000, 500, 1, Duration.ofSeconds(5),
				() -> new SimpleAsyncTaskScheduler() {

					@Override
					public void execute(Runnable task) {
						worker.add(task);
					}

				});
		dispatcher.start();
		Map<UUID, OutboxTestTable> committed = new LinkedHashMap<>();
		for (int i = 0; i < 3; i++) {
			for (String key : List.of("K", "L")) {
				CapturedEvent event = event("queue", "q", key);
				tables.get(i).insert(tables.get(i).store(), Duration.ofMinutes(1), event);
				dispatcher.committed(deliveries.get(i), List.of(event));
				committed.put(event.id(), tables.get(i));
			}
		}
		Thread running = new Thread(worker.get(0));

		running.start();

		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> committed
				.forEach((id, table) -> assertThat(table.row(id).status()).isEqualTo("PUBLISHED")));
		dispatcher.stop();
		assertThat(batches).containsExactly(new DeliveryResult(6, 6, 0));
	}

	private static CapturedEvent withPayload(String payload) {
		CapturedEvent event = event("queue", "q", "K");
		return new CapturedEvent(event.id(), null, null, event.eventType(), event.transport(), event.destination(),
				event.messageKey(), payload, Map.of());
	}

	private void awaitPublished(List<UUID> ids) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> ids.forEach((id) -> assertThat(this.outbox.row(id).status()).isEqualTo("PUBLISHED")));
	}

	private void commit(List<CapturedEvent> events) {
		this.outbox.insert(this.outbox.store(), Duration.ofMinutes(1), events.toArray(CapturedEvent[]::new));
		this.dispatcher.committed(events);
	}

	/**
	 * Acknowledges each message 30 ms after it was sent, and records which threads sent and how many
	 * of them had messages awaiting acknowledgement at once.
	 */
	private final class SlowTransport implements OutboxTransport {

		private final List<UUID> sent = new CopyOnWriteArrayList<>();

		private final Set<String> sendingThreads = ConcurrentHashMap.newKeySet();

		private final Map<String, Integer> awaitingByThread = new ConcurrentHashMap<>();

		private volatile int mostBatchesInFlight;

		@Override
		public String name() {
			return "queue";
		}

		@Override
		public synchronized CompletableFuture<?> send(OutboxMessage message) {
			String thread = Thread.currentThread().getName();
			this.sent.add(message.id());
			this.sendingThreads.add(thread);
			this.awaitingByThread.merge(thread, 1, Integer::sum);
			this.mostBatchesInFlight = Math.max(this.mostBatchesInFlight, this.awaitingByThread.size());
			CompletableFuture<Object> acknowledgement = new CompletableFuture<>();
			FastPathDispatcherTests.this.broker.schedule(() -> {
				acknowledged(thread);
				acknowledgement.complete(message.id());
			}, 30, TimeUnit.MILLISECONDS);
			return acknowledgement;
		}

		private synchronized void acknowledged(String thread) {
			this.awaitingByThread.computeIfPresent(thread, (name, awaiting) -> (awaiting == 1) ? null : awaiting - 1);
		}

	}

}
