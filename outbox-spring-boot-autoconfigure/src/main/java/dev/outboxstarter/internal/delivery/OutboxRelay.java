package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import dev.outboxstarter.internal.store.RelayHandOff;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * Polls for due pending rows every poll interval and publishes them in batches until none are left.
 * Every instance runs one; {@code SKIP LOCKED} shares the rows between them. A new row is due once
 * the fast path's grace period is over (see {@link RelayHandOff}). It runs on its own
 * thread rather than through {@code @Scheduled}, so the starter does not switch on scheduling for
 * the whole application; the thread comes from Spring Boot's task scheduler builder, so it is a
 * virtual thread with {@code spring.threads.virtual.enabled=true}.
 */
public class OutboxRelay implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(OutboxRelay.class);

	private final BatchDelivery delivery;

	private final int batchSize;

	private final Duration pollInterval;

	private final Duration shutdownTimeout;

	private volatile boolean running;

	private volatile @Nullable Instant lastRun;

	private final Supplier<SimpleAsyncTaskScheduler> schedulers;

	/** Held by a poll while it runs, so that stopping can wait for the batch in flight. */
	private final ReentrantLock polling = new ReentrantLock();

	private @Nullable SimpleAsyncTaskScheduler scheduler;

	private final FailedPolls failedPolls = new FailedPolls();

	/**
	 * Creates the relay.
	 * @param delivery publishes claimed batches
	 * @param batchSize most rows per batch
	 * @param pollInterval pause between polls that found nothing more to do
	 * @param shutdownTimeout how long stopping waits for the batch in flight
	 * @param schedulers a new scheduler for the relay's thread at each start
	 */
	public OutboxRelay(BatchDelivery delivery, int batchSize, Duration pollInterval, Duration shutdownTimeout,
			Supplier<SimpleAsyncTaskScheduler> schedulers) {
		this.delivery = delivery;
		this.batchSize = batchSize;
		this.pollInterval = pollInterval;
		this.shutdownTimeout = shutdownTimeout;
		this.schedulers = schedulers;
	}

	/**
	 * Publishes due rows in batches until none are left (see {@link Drain}).
	 * @return rows published
	 */
	public int drain() {
		Drain drain = new Drain(this.delivery, this.batchSize);
		boolean more = true;
		while (more && this.running) {
			more = drain.next();
			this.lastRun = Instant.now();
		}
		return drain.published();
	}

	/**
	 * When the relay last completed a poll or a batch, whether or not it found rows, or started. A
	 * relay that cannot reach the database stops moving it on.
	 * @return the time, or {@code null} before the relay started
	 */
	public @Nullable Instant lastRun() {
		return this.lastRun;
	}

	@Override
	public void start() {
		this.running = true;
		this.lastRun = Instant.now();
		this.scheduler = this.schedulers.get();
		this.scheduler.scheduleWithFixedDelay(this::poll, Instant.now().plus(this.pollInterval), this.pollInterval);
	}

	private void poll() {
		this.polling.lock();
		try {
			drain();
		}
		catch (RuntimeException ex) {
			this.failedPolls.failed(ex);
			return;
		}
		finally {
			this.polling.unlock();
		}
		this.failedPolls.succeeded();
	}

	@Override
	public void stop() {
		this.running = false;
		// A poll in flight ends after its batch: wait for it that long, then stop the schedule (and
		// interrupt a poll that outlived the wait).
		try {
			if (this.polling.tryLock(this.shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
				this.polling.unlock();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		SimpleAsyncTaskScheduler scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.close();
			this.scheduler = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Tells the operator about polls that fail, without a warning per poll: while the database is down
	 * a relay polling every second would log thousands an hour, each with the same stack trace. The
	 * first failure is a warning with its stack trace, a run of failures a warning once a minute, its
	 * end one line. Used by the relay's thread only.
	 */
	private final class FailedPolls {

		private static final Duration REPEAT = Duration.ofMinutes(1);

		private int count;

		private long since;

		private long warnedAt;

		void failed(RuntimeException ex) {
			long now = System.nanoTime();
			this.count++;
			if (this.count == 1) {
				this.since = now;
				this.warnedAt = now;
				// Nothing is lost: the rows stay pending until a poll publishes them.
				logger.warn("Outbox relay poll failed; the events stay pending and the relay tries again every "
						+ OutboxRelay.this.pollInterval + ", warning once a minute while its polls keep failing", ex);
			}
			else if (now - this.warnedAt >= REPEAT.toNanos()) {
				this.warnedAt = now;
				logger.warn("Outbox relay polls have been failing for " + since(now) + " (" + this.count + " polls): "
						+ NestedExceptionUtils.getMostSpecificCause(ex));
			}
			else if (logger.isDebugEnabled()) {
				logger.debug("Outbox relay poll failed again", ex);
			}
		}

		void succeeded() {
			if (this.count > 0) {
				logger.info("Outbox relay polls again after " + this.count + " failed polls over "
						+ since(System.nanoTime()));
				this.count = 0;
			}
		}

		private Duration since(long now) {
			return Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(now - this.since));
		}

	}

}
