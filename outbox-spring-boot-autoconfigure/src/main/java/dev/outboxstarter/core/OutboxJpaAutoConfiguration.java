package dev.outboxstarter.core;

import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.capture.jpa.EntityManagerFlushHook;
import dev.outboxstarter.internal.capture.jpa.FlushedAggregateEventsRegistrar;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.orm.jpa.EntityManagerHolder;

/**
 * Captures the pending events of every JPA aggregate a flush or a merge meets, not only those Spring
 * Data publishes on a repository call, and flushes before the outbox rows are written so those events
 * are not missed.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(value = { EntityManagerFactory.class, EntityManagerHolder.class, SessionFactoryImplementor.class },
		name = "org.springframework.data.domain.DomainEvents")
@ConditionalOnBean(OutboxCapture.class)
final class OutboxJpaAutoConfiguration {

	@Bean
	static FlushedAggregateEventsRegistrar outboxFlushedAggregateEventsRegistrar(ObjectProvider<OutboxCapture> capture) {
		return new FlushedAggregateEventsRegistrar(capture);
	}

	@Bean
	EntityManagerFlushHook outboxEntityManagerFlushHook() {
		return new EntityManagerFlushHook();
	}

}
