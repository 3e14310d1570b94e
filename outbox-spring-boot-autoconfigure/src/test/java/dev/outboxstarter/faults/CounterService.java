package dev.outboxstarter.faults;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The business transactions of the fault suite.
 */
@Service
class CounterService {

	private final CounterRepository counters;

	CounterService(CounterRepository counters) {
		this.counters = counters;
	}

	/**
	 * Increments a counter under a row lock, so its totals follow commit order: the counter of the
	 * tenant current on this thread ({@link FaultTenants#as}), in its schema, or the primary one.
	 * @param key the counter
	 * @param txId the transaction's id, carried by the event
	 * @param rollBack whether to fail after the save, rolling everything back
	 * @param poison whether to raise a {@link Poison} event too
	 */
	@Transactional
	public void increment(int key, String txId, boolean rollBack, boolean poison) {
		String tenant = FaultTenants.current();
		Counter counter = this.counters.lockById(key).increment(txId, tenant);
		if (poison) {
			counter.poison(txId, tenant, "x".repeat(Poison.PADDING));
		}
		this.counters.save(counter);
		if (rollBack) {
			throw new DeliberateRollback(txId);
		}
	}

	static final class DeliberateRollback extends RuntimeException {

		DeliberateRollback(String txId) {
			super("Deliberate rollback of " + txId, null, false, false);
		}

	}

}
