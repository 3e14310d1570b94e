package dev.outboxstarter.core.cleanup;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import dev.outboxstarter.core.store.OutboxStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes published rows past their retention, and DEAD rows past theirs if one is set, in bounded
 * batches of short transactions so the table is never locked for long. Every instance may run it:
 * batches skip rows another instance is deleting (where the database can) or simply find them gone.
 */
public class OutboxCleanup implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(OutboxCleanup.class);

	private final OutboxStore store;

	private final TransactionTemplate transactions;

	private final Duration publishedRetention;

	private final @Nullable Duration deadRetention;

	private final int batchSize;

	private final Duration interval;

	private volatile boolean running;

	private ScheduledExecutorService scheduler;

	/**
	 * Creates the cleanup.
	 * @param store the outbox store
	 * @param transactions transactions on the outbox data source, one per batch
	 * @param publishedRetention how long published rows are kept
	 * @param deadRetention how long DEAD rows are kept, or {@code null} to keep them
	 * @param batchSize most rows deleted per batch
	 * @param interval pause between cleanups
	 */
	public OutboxCleanup(OutboxStore store, TransactionTemplate transactions, Duration publishedRetention,
			@Nullable Duration deadRetention, int batchSize, Duration interval) {
		this.store = store;
		this.transactions = transactions;
		this.publishedRetention = publishedRetention;
		this.deadRetention = deadRetention;
		this.batchSize = batchSize;
		this.interval = interval;
	}

	/**
	 * Deletes every row past its retention now, batch after batch.
	 * @return how many rows were deleted
	 */
	public int clean() {
		int deleted = deleteInBatches(() -> this.store.deletePublished(this.publishedRetention, this.batchSize));
		if (this.deadRetention != null) {
			Duration retention = this.deadRetention;
			deleted += deleteInBatches(() -> this.store.deleteDead(retention, this.batchSize));
		}
		return deleted;
	}

	private int deleteInBatches(IntSupplier batch) {
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

	@Override
	public void start() {
		this.running = true;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "outbox-cleanup");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.interval.toMillis();
		this.scheduler.scheduleWithFixedDelay(this::cleanQuietly, millis, millis, TimeUnit.MILLISECONDS);
	}

	private void cleanQuietly() {
		try {
			clean();
		}
		catch (RuntimeException ex) {
			// Nothing is lost: the rows are deleted next time.
			logger.warn("Outbox cleanup failed", ex);
		}
	}

	@Override
	public void stop() {
		this.running = false;
		this.scheduler.shutdownNow();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
