package dev.outboxstarter.internal.housekeeping;

import java.time.Duration;
import java.util.function.Supplier;

import dev.outboxstarter.internal.store.OutboxStore;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes published rows past their retention, and DEAD rows past theirs if one is set, in bounded
 * batches of short transactions so the table is never locked for long. Every instance may run it:
 * batches skip rows another instance is deleting (where the database can) or simply find them gone.
 */
public class OutboxCleanup extends BatchedCleanup {

	private final OutboxStore store;

	private final Duration publishedRetention;

	private final @Nullable Duration deadRetention;

	/**
	 * Creates the cleanup.
	 * @param store the outbox store
	 * @param transactions transactions on the outbox data source, one per batch
	 * @param publishedRetention how long published rows are kept
	 * @param deadRetention how long DEAD rows are kept after they became DEAD, or {@code null} to keep them
	 * @param batchSize most rows deleted per batch
	 * @param interval pause between cleanups
	 * @param schedulers a new scheduler for the cleanup's thread at each start
	 */
	public OutboxCleanup(OutboxStore store, TransactionTemplate transactions, Duration publishedRetention,
			@Nullable Duration deadRetention, int batchSize, Duration interval,
			Supplier<SimpleAsyncTaskScheduler> schedulers) {
		super(transactions, batchSize, interval, schedulers);
		this.store = store;
		this.publishedRetention = publishedRetention;
		this.deadRetention = deadRetention;
	}

	@Override
	public int clean() {
		int deleted = deleteInBatches(() -> this.store.deletePublished(this.publishedRetention, batchSize()));
		if (this.deadRetention != null) {
			Duration retention = this.deadRetention;
			deleted += deleteInBatches(() -> this.store.deleteDead(retention, batchSize()));
		}
		return deleted;
	}

}
