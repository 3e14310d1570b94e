package dev.outboxstarter.internal.delivery;

import java.util.List;
import java.util.function.Function;

import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.PublishPath;

/**
 * One drain of an outbox table's due rows, a batch at a time: each batch claims after the last row of
 * the one before, until a batch comes back short or publishes nothing. A short batch that did not
 * start from the beginning is followed by one that does: rows the drain passed over may be due by then
 * (backed off until the drain's first acknowledgement resumed them, or locked by the fast path a moment
 * ago), and would otherwise wait a poll interval after everything behind them was published.
 * <p>
 * A full batch that published nothing and had nothing fail was held back (an earlier row of each of its
 * keys is locked by another claim) or postponed: the drain goes on after it, since ending there would
 * leave every row behind it, of every other key, to wait until that other claim ends, poll after poll
 * claiming the same held-back rows from the start.
 */
final class Drain {

	private final BatchDelivery delivery;

	private final int batchSize;

	private final ResumingClaim claim = new ResumingClaim();

	private int published;

	Drain(BatchDelivery delivery, int batchSize) {
		this.delivery = delivery;
		this.batchSize = batchSize;
	}

	/**
	 * Publishes the next batch.
	 * @return whether the drain goes on with another batch
	 */
	boolean next() {
		boolean fromStart = this.claim.isAtStart();
		DeliveryResult result = this.delivery.deliver(PublishPath.RELAY, this.claim);
		this.published += result.published();
		boolean full = result.claimed() == this.batchSize;
		boolean passedOver = full && result.published() == 0 && result.failed() == 0;
		if ((result.published() == 0 && !passedOver) || (!full && fromStart)) {
			return false;
		}
		if (!full) {
			this.claim.restart();
		}
		return true;
	}

	/**
	 * Rows published so far.
	 * @return the count
	 */
	int published() {
		return this.published;
	}

	/**
	 * Claims due rows after the last row it claimed. The rows before it were just published, or failed,
	 * or were passed over, and the next drain starts from the beginning again; a claim from the start
	 * would walk the index entries the published rows leave behind until vacuum, and so slow down with
	 * every batch of a large backlog.
	 */
	private final class ResumingClaim implements Function<OutboxStore, ClaimedBatch> {

		private long afterSeq;

		@Override
		public ClaimedBatch apply(OutboxStore store) {
			ClaimedBatch batch = store.claimDue(Drain.this.batchSize, this.afterSeq);
			List<ClaimedEvent> claimed = batch.events();
			if (!claimed.isEmpty()) {
				this.afterSeq = claimed.get(claimed.size() - 1).seq();
			}
			return batch;
		}

		boolean isAtStart() {
			return this.afterSeq == 0;
		}

		void restart() {
			this.afterSeq = 0;
		}

	}

}
