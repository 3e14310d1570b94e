package dev.outboxstarter.core.fastpath;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.outboxstarter.core.capture.CommittedEventsListener;
import dev.outboxstarter.core.publish.BatchDelivery;
import dev.outboxstarter.core.publish.PublishPath;
import dev.outboxstarter.core.store.CapturedEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Publishes committed outbox rows right away, so the happy path needs no polling. Ids go into a
 * bounded queue that never blocks the committing thread: when it is full the ids are dropped and the
 * rows wait for the relay, which takes them once their grace period has passed. One worker claims
 * the queued ids in batches through the same locking, head-of-line-checking delivery as the relay.
 */
public class FastPathDispatcher implements CommittedEventsListener, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(FastPathDispatcher.class);

	private static final long POLL_MILLIS = 100;

	private final BatchDelivery delivery;

	private final BlockingQueue<UUID> queue;

	private final int batchSize;

	private final Duration shutdownTimeout;

	private final AtomicLong overflow = new AtomicLong();

	private volatile boolean running;

	private Thread worker;

	/**
	 * Creates the dispatcher.
	 * @param delivery publishes claimed batches
	 * @param capacity queue capacity, in events
	 * @param batchSize most events per batch
	 * @param shutdownTimeout how long stopping waits for the batch in flight
	 */
	public FastPathDispatcher(BatchDelivery delivery, int capacity, int batchSize, Duration shutdownTimeout) {
		this.delivery = delivery;
		this.queue = new ArrayBlockingQueue<>(capacity);
		this.batchSize = batchSize;
		this.shutdownTimeout = shutdownTimeout;
	}

	@Override
	public void committed(List<CapturedEvent> events) {
		if (!this.running) {
			return;
		}
		for (CapturedEvent event : events) {
			if (!this.queue.offer(event.id())) {
				this.overflow.incrementAndGet();
			}
		}
	}

	/**
	 * Ids waiting in the queue.
	 * @return the queue size
	 */
	public int queueSize() {
		return this.queue.size();
	}

	/**
	 * Ids dropped because the queue was full (their rows went to the relay).
	 * @return the overflow count since start
	 */
	public long overflowCount() {
		return this.overflow.get();
	}

	@Override
	public void start() {
		this.running = true;
		this.worker = new Thread(this::run, "outbox-fast-path");
		this.worker.setDaemon(true);
		this.worker.start();
	}

	@Override
	public void stop() {
		this.running = false;
		try {
			this.worker.join(this.shutdownTimeout.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		// What is still queued is committed and pending: the relay or the next start publishes it.
		this.queue.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	private void run() {
		List<UUID> batch = new ArrayList<>(this.batchSize);
		while (this.running) {
			try {
				UUID first = this.queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
				if (first == null) {
					continue;
				}
				batch.add(first);
				this.queue.drainTo(batch, this.batchSize - 1);
				List<UUID> ids = List.copyOf(batch);
				this.delivery.deliver(PublishPath.FAST, (store) -> store.claimByIds(ids));
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

}
