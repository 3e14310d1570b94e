package dev.outboxstarter.internal.capture.jpa;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.data.repository.core.EntityInformation;
import org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport;

/**
 * Adds an {@link AggregateTrackingInterceptor} to every Spring Data repository, ahead of Spring
 * Data's own event publishing so that it surrounds it.
 */
public class AggregateTrackingPostProcessor implements BeanPostProcessor {

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof RepositoryFactoryBeanSupport<?, ?, ?> repositoryFactoryBean) {
			repositoryFactoryBean.addRepositoryFactoryCustomizer((factory) -> factory
				.addRepositoryProxyPostProcessor((proxyFactory, repositoryInformation) -> {
					@SuppressWarnings("unchecked")
					EntityInformation<Object, ?> entityInformation = (EntityInformation<Object, ?>) factory
						.getEntityInformation(repositoryInformation);
					proxyFactory.addAdvice(0, new AggregateTrackingInterceptor(entityInformation));
				}));
		}
		return bean;
	}

}
