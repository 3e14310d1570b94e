package dev.outboxstarter.core.capture.jpa;

import dev.outboxstarter.core.capture.OutboxCapture;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.event.spi.EventType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Registers a {@link FlushedAggregateEventsListener} with every Hibernate
 * {@link EntityManagerFactory} of the context.
 */
public class FlushedAggregateEventsRegistrar implements BeanPostProcessor {

	private final ObjectProvider<OutboxCapture> capture;

	public FlushedAggregateEventsRegistrar(ObjectProvider<OutboxCapture> capture) {
		this.capture = capture;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof EntityManagerFactory entityManagerFactory) {
			SessionFactoryImplementor sessionFactory = entityManagerFactory.unwrap(SessionFactoryImplementor.class);
			EventListenerRegistry registry = sessionFactory.getServiceRegistry().requireService(EventListenerRegistry.class);
			FlushedAggregateEventsListener listener = new FlushedAggregateEventsListener(this.capture);
			registry.appendListeners(EventType.PRE_UPDATE, listener);
			registry.appendListeners(EventType.PRE_DELETE, listener);
		}
		return bean;
	}

}
