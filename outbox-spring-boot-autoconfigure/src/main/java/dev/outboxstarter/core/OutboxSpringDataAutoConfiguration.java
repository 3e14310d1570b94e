package dev.outboxstarter.core;

import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.capture.jpa.AggregateTrackingPostProcessor;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport;

/**
 * Lets the capture know which aggregate each event of a Spring Data repository call came from, so the
 * aggregate type and id are stored and the id is the default message key.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(RepositoryFactoryBeanSupport.class)
@ConditionalOnBean(OutboxCapture.class)
final class OutboxSpringDataAutoConfiguration {

	@Bean
	static AggregateTrackingPostProcessor outboxAggregateTrackingPostProcessor() {
		return new AggregateTrackingPostProcessor();
	}

}
