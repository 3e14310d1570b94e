package dev.outboxstarter.internal.capture.jpa;

import dev.outboxstarter.internal.capture.OutboxCapture;
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
			if (isRegistered(registry)) {
				// The same factory can be post-processed through more than one bean (e.g. a FactoryBean and its product).
				return bean;
			}
			FlushedAggregateEventsListener listener = new FlushedAggregateEventsListener(this.capture);
			registry.appendListeners(EventType.FLUSH_ENTITY, listener);
			registry.appendListeners(EventType.MERGE, listener);
		}
		return bean;
	}

	private static boolean isRegistered(EventListenerRegistry registry) {
		for (Object listener : registry.getEventListenerGroup(EventType.FLUSH_ENTITY).listeners()) {
			if (listener instanceof FlushedAggregateEventsListener) {
				return true;
			}
		}
		return false;
	}

}
