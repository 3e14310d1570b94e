package dev.outboxstarter.internal.housekeeping;

import java.time.Duration;
import java.time.Instant;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes expired rows every interval, on a thread of its own, in bounded batches of one short
 * transaction each, so a table is never locked for long. Failures are logged and the rows deleted
 * next time.
 */
abstract class BatchedCleanup implements SmartLifecycle {

	private final Log logger = LogFactory.getLog(getClass());

	private final TransactionTemplate transactions;

	private final int batchSize;

	private final Duration interval;

	private final Supplier<SimpleAsyncTaskScheduler> schedulers;

	private volatile boolean running;

	private @Nullable SimpleAsyncTaskScheduler scheduler;

	/**
	 * Creates the cleanup.
	 * @param transactions transactions on the table's data source, one per batch
	 * @param batchSize most rows deleted per batch
	 * @param interval pause between cleanups
	 * @param schedulers a new scheduler for the cleanup's thread at each start
	 */
	protected BatchedCleanup(TransactionTemplate transactions, int batchSize, Duration interval,
			Supplier<SimpleAsyncTaskScheduler> schedulers) {
		this.transactions = transactions;
		this.batchSize = batchSize;
		this.interval = interval;
		this.schedulers = schedulers;
	}

	/**
	 * Deletes every expired row now, batch after batch.
	 * @return how many rows were deleted
	 */
	public abstract int clean();

	/**
	 * Runs batches until one deletes fewer rows than the batch size.
	 * @param batch deletes one batch of at most {@link #batchSize()} rows and returns how many
	 * @return how many rows were deleted in all
	 */
	protected final int deleteInBatches(IntSupplier batch) {
		int total = 0;
		int deleted;
		do {
			Integer result = this.transactions.execute((status) -> batch.getAsInt());
			deleted = (result != null) ? result : 0;
			total += deleted;
		}
		while (deleted == this.batchSize && !Thread.currentThread().isInterrupted());
		return total;
	}

	protected final int batchSize() {
		return this.batchSize;
	}

	@Override
	public void start() {
		this.running = true;
		this.scheduler = this.schedulers.get();
		this.scheduler.scheduleWithFixedDelay(this::cleanQuietly, Instant.now().plus(this.interval), this.interval);
	}

	private void cleanQuietly() {
		try {
			clean();
		}
		catch (RuntimeException ex) {
			// Nothing is lost: the rows are deleted next time.
			this.logger.warn("Cleanup failed; it runs again in " + this.interval, ex);
		}
	}

	@Override
	public void stop() {
		this.running = false;
		SimpleAsyncTaskScheduler scheduler = this.scheduler;
		if (scheduler != null) {
			// Interrupts a cleanup in progress: what it has not deleted is deleted next time.
			scheduler.close();
			this.scheduler = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
