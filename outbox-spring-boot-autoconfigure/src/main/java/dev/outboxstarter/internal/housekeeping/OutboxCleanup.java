package dev.outboxstarter.internal.housekeeping;

import java.time.Duration;
import java.util.function.Supplier;

import dev.outboxstarter.internal.store.StoredEvents;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes published rows past their retention, and DEAD rows past theirs if one is set, in bounded
 * batches of short transactions so the table is never locked for long. Every instance may run it:
 * batches skip rows another instance is deleting (where the database can) or simply find them gone.
 */
public class OutboxCleanup extends BatchedCleanup {

	private final StoredEvents storedEvents;

	private final Duration publishedRetention;

	private final @Nullable Duration deadRetention;

	/**
	 * Creates the cleanup.
	 * @param storedEvents the outbox table's rows
	 * @param transactions transactions on the outbox data source, one per batch
	 * @param publishedRetention how long published rows are kept
	 * @param deadRetention how long DEAD rows are kept after they became DEAD, or {@code null} to keep them
	 * @param batchSize most rows deleted per batch
	 * @param interval pause between cleanups
	 * @param schedulers a new scheduler for the cleanup's thread at each start
	 */
	public OutboxCleanup(StoredEvents storedEvents, TransactionTemplate transactions, Duration publishedRetention,
			@Nullable Duration deadRetention, int batchSize, Duration interval,
			Supplier<SimpleAsyncTaskScheduler> schedulers) {
		super(transactions, batchSize, interval, schedulers);
		this.storedEvents = storedEvents;
		this.publishedRetention = publishedRetention;
		this.deadRetention = deadRetention;
	}

	@Override
	public int clean() {
		int deleted = deleteInBatches(() -> this.storedEvents.deletePublished(this.publishedRetention, batchSize()));
		if (this.deadRetention != null) {
			Duration retention = this.deadRetention;
			deleted += deleteInBatches(() -> this.storedEvents.deleteDead(retention, batchSize()));
		}
		return deleted;
	}

}
