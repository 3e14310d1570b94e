package dev.outboxstarter.inbox;

import java.time.Duration;

import dev.outboxstarter.core.cleanup.BatchedCleanup;
import dev.outboxstarter.core.store.InboxStore;

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
	 */
	public InboxCleanup(InboxStore store, TransactionTemplate transactions, Duration retention, int batchSize,
			Duration interval) {
		super(transactions, batchSize, interval, "outbox-inbox-cleanup");
		this.store = store;
		this.retention = retention;
	}

	@Override
	public int clean() {
		return deleteInBatches(() -> this.store.deleteExpired(this.retention, batchSize()));
	}

}
