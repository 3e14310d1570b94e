package dev.outboxstarter.core.capture.jpa;

import dev.outboxstarter.core.capture.CaptureFlushHook;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.orm.jpa.EntityManagerHolder;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Flushes the entity managers bound to the current transaction, so that changed aggregates raise
 * their events before the outbox rows are written.
 */
public class EntityManagerFlushHook implements CaptureFlushHook {

	private final ObjectProvider<EntityManagerFactory> entityManagerFactories;

	public EntityManagerFlushHook(ObjectProvider<EntityManagerFactory> entityManagerFactories) {
		this.entityManagerFactories = entityManagerFactories;
	}

	@Override
	public void flush() {
		this.entityManagerFactories.forEach((entityManagerFactory) -> {
			if (TransactionSynchronizationManager.getResource(entityManagerFactory) instanceof EntityManagerHolder holder) {
				holder.getEntityManager().flush();
			}
		});
	}

}
