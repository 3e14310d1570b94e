package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.ClaimedEvent.OrderingKey;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.CommittedEventsListener;
import dev.outboxstarter.spi.PublishPath;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.util.Assert;

/**
 * Publishes committed outbox rows right away, so the happy path needs no polling. The committed events
 * go into bounded queues that never block the committing thread: when one is full they are dropped and
 * their rows wait for the relay, which takes them once their grace period has passed (see
 * {@link RelayHandOff}). Each queue has a worker that claims the rows of its queued events in batches
 * through the same locking, head-of-line-checking delivery as the relay.
 * <p>
 * With several workers, one batch can be claimed and sent while another awaits its acknowledgements
 * and is marked, so an event committed meanwhile does not wait for a whole cycle before its own starts.
 * Every ordering key (transport, destination, message key) goes to one queue, so one worker publishes
 * all of a key's events, one batch after another: a batch in flight on another worker would otherwise
 * hold the key's next events back, and those would wait out their grace period for the relay.
 */
public class FastPathDispatcher implements CommittedEventsListener, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(FastPathDispatcher.class);

	private static final long POLL_MILLIS = 100;

	/**
	 * The most payload characters the queues hold at once: they hold whole events, so their capacity in
	 * events alone would not bound their memory when payloads are large. Beyond it, events overflow to
	 * the relay like events beyond the capacity.
	 */
	static final long MAX_QUEUED_PAYLOAD_CHARS = 16L * 1024 * 1024;

	private final BatchDelivery delivery;

	private final List<Lane> lanes;

	private final int batchSize;

	private final Duration shutdownTimeout;

	private final AtomicLong overflow = new AtomicLong();

	private final AtomicLong queuedPayloadChars = new AtomicLong();

	private final Supplier<SimpleAsyncTaskScheduler> schedulers;

	private volatile boolean running;

	private @Nullable SimpleAsyncTaskScheduler workers;

	/**
	 * Creates the dispatcher.
	 * @param delivery publishes claimed batches
	 * @param capacity queue capacity, in events, shared evenly among the workers
	 * @param batchSize most events per batch
	 * @param workers how many batches may be in flight at once, each on a worker of its own
	 * @param shutdownTimeout how long stopping waits for the batches in flight
	 * @param schedulers a new scheduler for the workers' threads at each start
	 */
	public FastPathDispatcher(BatchDelivery delivery, int capacity, int batchSize, int workers,
			Duration shutdownTimeout, Supplier<SimpleAsyncTaskScheduler> schedulers) {
		Assert.isTrue(workers > 0, "workers must be positive");
		this.delivery = delivery;
		this.batchSize = batchSize;
		this.shutdownTimeout = shutdownTimeout;
		this.schedulers = schedulers;
		List<Lane> lanes = new ArrayList<>(workers);
		for (int i = 0; i < workers; i++) {
			int share = capacity / workers + ((i < capacity % workers) ? 1 : 0);
			lanes.add(new Lane(Math.max(1, share)));
		}
		this.lanes = List.copyOf(lanes);
	}

	@Override
	public void committed(List<CapturedEvent> events) {
		committed(this.delivery, events);
	}

	/**
	 * Queues committed events of another outbox table than this dispatcher's own, such as a tenant's,
	 * for its workers to publish through that table's delivery.
	 * @param delivery publishes the events' rows
	 * @param events the committed events
	 */
	public void committed(BatchDelivery delivery, List<CapturedEvent> events) {
		if (!this.running) {
			return;
		}
		for (CapturedEvent event : events) {
			if (event.isDelayed()) {
				// Not due yet: the relay publishes it once it is.
				continue;
			}
			int chars = event.payload().length();
			if (this.queuedPayloadChars.addAndGet(chars) > MAX_QUEUED_PAYLOAD_CHARS
					|| !laneOf(event).queue.offer(new Queued(delivery, event))) {
				this.queuedPayloadChars.addAndGet(-chars);
				this.overflow.incrementAndGet();
			}
		}
	}

	/**
	 * The lane of the event's ordering key; an event without a key may go to any, and goes by its id.
	 */
	private Lane laneOf(CapturedEvent event) {
		if (this.lanes.size() == 1) {
			return this.lanes.get(0);
		}
		OrderingKey key = OrderingKey.of(event);
		int hash = (key != null) ? key.hashCode() : event.id().hashCode();
		return this.lanes.get(Math.floorMod(hash, this.lanes.size()));
	}

	/**
	 * Events waiting in the queues.
	 * @return the number of queued events
	 */
	public int queueSize() {
		return this.lanes.stream().mapToInt((lane) -> lane.queue.size()).sum();
	}

	/**
	 * Events dropped because their queue was full (their rows went to the relay).
	 * @return the overflow count since start
	 */
	public long overflowCount() {
		return this.overflow.get();
	}

	@Override
	public void start() {
		this.running = true;
		SimpleAsyncTaskScheduler workers = this.schedulers.get();
		this.workers = workers;
		this.lanes.forEach((lane) -> lane.start(workers));
	}

	@Override
	public void stop() {
		this.running = false;
		long deadline = System.nanoTime() + this.shutdownTimeout.toNanos();
		try {
			for (Lane lane : this.lanes) {
				lane.stopped.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		SimpleAsyncTaskScheduler workers = this.workers;
		if (workers != null) {
			workers.close();
			this.workers = null;
		}
		// What is still queued is committed and pending: the relay or the next start publishes it.
		this.lanes.forEach((lane) -> lane.queue.clear());
		this.queuedPayloadChars.set(0);
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * A committed event and the delivery of the table its row is in.
	 */
	private record Queued(BatchDelivery delivery, CapturedEvent event) {

	}

	/**
	 * A queue and the worker that publishes what it holds.
	 */
	private final class Lane {

		/** Whole events, not ids: the claim then only locks their rows and reads neither payload nor headers. */
		private final BlockingQueue<Queued> queue;

		private volatile CountDownLatch stopped = new CountDownLatch(0);

		Lane(int capacity) {
			this.queue = new ArrayBlockingQueue<>(capacity);
		}

		void start(SimpleAsyncTaskScheduler workers) {
			CountDownLatch stopped = new CountDownLatch(1);
			this.stopped = stopped;
			workers.execute(() -> {
				try {
					run();
				}
				finally {
					stopped.countDown();
				}
			});
		}

		private void run() {
			List<Queued> batch = new ArrayList<>(FastPathDispatcher.this.batchSize);
			while (FastPathDispatcher.this.running) {
				try {
					Queued first = this.queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
					if (first == null) {
						continue;
					}
					batch.add(first);
					this.queue.drainTo(batch, FastPathDispatcher.this.batchSize - 1);
					long chars = 0;
					for (Queued queued : batch) {
						chars += queued.event().payload().length();
					}
					FastPathDispatcher.this.queuedPayloadChars.addAndGet(-chars);
					deliver(batch);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
				catch (RuntimeException ex) {
					// E.g. the database is unreachable: the rows stay pending and the relay retries them.
					logger.warn("Fast path could not publish " + batch.size() + " outbox events; the relay will", ex);
				}
				finally {
					batch.clear();
				}
			}
		}

		/**
		 * Publishes a batch, nearly always of one table. Events of several tables, such as tenants'
		 * schemas, go out together for each data source they share, in queue order per table.
		 */
		private void deliver(List<Queued> batch) {
			BatchDelivery delivery = batch.get(0).delivery();
			List<CapturedEvent> events = new ArrayList<>(batch.size());
			for (Queued queued : batch) {
				if (queued.delivery() != delivery) {
					deliverByDataSource(batch);
					return;
				}
				events.add(queued.event());
			}
			delivery.deliver(PublishPath.FAST, (store) -> store.claimCaptured(events));
		}

		private void deliverByDataSource(List<Queued> batch) {
			Map<BatchDelivery, List<CapturedEvent>> byTable = new LinkedHashMap<>();
			for (Queued queued : batch) {
				byTable.computeIfAbsent(queued.delivery(), (table) -> new ArrayList<>()).add(queued.event());
			}
			List<TablesOfDataSource> byDataSource = new ArrayList<>();
			byTable.forEach((table, events) -> TablesOfDataSource.of(table, byDataSource)
				.claims.put(table, (store) -> store.claimCaptured(events)));
			for (TablesOfDataSource tables : byDataSource) {
				try {
					tables.lead.deliverTogether(PublishPath.FAST, tables.claims);
				}
				catch (RuntimeException ex) {
					logger.warn("Fast path could not publish the outbox events of " + tables.claims.size()
							+ " tables; the relay will", ex);
				}
			}
		}

	}

	/**
	 * The tables of one data source in a batch, and how to claim each one's rows.
	 */
	private static final class TablesOfDataSource {

		private final BatchDelivery lead;

		private final Map<BatchDelivery, Function<OutboxStore, ClaimedBatch>> claims = new LinkedHashMap<>();

		private TablesOfDataSource(BatchDelivery lead) {
			this.lead = lead;
		}

		/** The tables gathered so far that share the table's data source, or new ones if none do. */
		static TablesOfDataSource of(BatchDelivery table, List<TablesOfDataSource> gathered) {
			for (TablesOfDataSource tables : gathered) {
				if (tables.lead.sharesTransactionsWith(table)) {
					return tables;
				}
			}
			TablesOfDataSource tables = new TablesOfDataSource(table);
			gathered.add(tables);
			return tables;
		}

	}

}
