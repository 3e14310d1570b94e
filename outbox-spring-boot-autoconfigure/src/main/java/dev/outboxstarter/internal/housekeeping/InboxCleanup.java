package dev.outboxstarter.internal.housekeeping;

import java.time.Duration;
import java.util.function.Supplier;

import dev.outboxstarter.internal.inbox.InboxStore;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes processed message ids older than the inbox retention, in bounded batches of short
 * transactions, on every instance.
 */
public class InboxCleanup extends BatchedCleanup {

	private final InboxStore store;

	private final Duration retention;

	/**
	 * Creates the cleanup.
	 * @param store the inbox table
	 * @param transactions transactions on its data source, one per batch
	 * @param retention how long processed ids are kept
	 * @param batchSize most ids deleted per batch
	 * @param interval pause between cleanups
	 * @param schedulers a new scheduler for the cleanup's thread at each start
	 */
	public InboxCleanup(InboxStore store, TransactionTemplate transactions, Duration retention, int batchSize,
			Duration interval, Supplier<SimpleAsyncTaskScheduler> schedulers) {
		super(transactions, batchSize, interval, schedulers);
		this.store = store;
		this.retention = retention;
	}

	@Override
	public int clean() {
		return deleteInBatches(() -> this.store.deleteExpired(this.retention, batchSize()));
	}

}
