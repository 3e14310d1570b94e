package dev.outboxstarter.internal.capture.jpa;

import dev.outboxstarter.internal.capture.CaptureFlushHook;

import org.springframework.orm.jpa.EntityManagerHolder;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Flushes the entity managers bound to the current transaction, so that changed aggregates raise
 * their events before the outbox rows are written. It finds them among the transaction's resources
 * rather than looking up entity manager factories, since it runs in every committing transaction.
 */
public class EntityManagerFlushHook implements CaptureFlushHook {

	@Override
	public void flush() {
		for (Object resource : TransactionSynchronizationManager.getResourceMap().values()) {
			if (resource instanceof EntityManagerHolder holder) {
				holder.getEntityManager().flush();
			}
		}
	}

}
