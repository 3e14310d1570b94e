package dev.outboxstarter.core;

import java.util.UUID;

import dev.outboxstarter.internal.capture.jpa.AggregateTrackingPostProcessor;
import dev.outboxstarter.internal.capture.jpa.EntityManagerFlushHook;
import dev.outboxstarter.internal.capture.jpa.FlushedAggregateEventsRegistrar;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.domain.DomainEvents;
import org.springframework.data.repository.core.support.RepositoryFactoryBeanSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the capture hooks into JPA and Spring Data: each with its library and the outbox, neither
 * without one of them.
 */
class OutboxCaptureAutoConfigurationsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				OutboxAutoConfiguration.class, OutboxJpaAutoConfiguration.class,
				OutboxSpringDataAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void withHibernateAndSpringDataTheCaptureTakesFlushedAggregatesAndTracksRepositoryCalls() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(FlushedAggregateEventsRegistrar.class)
			.hasSingleBean(EntityManagerFlushHook.class)
			.hasSingleBean(AggregateTrackingPostProcessor.class));
	}

	@Test
	void withoutTheOutboxNeitherHookIsInstalled() {
		this.runner.withPropertyValues("outbox.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(FlushedAggregateEventsRegistrar.class)
				.doesNotHaveBean(EntityManagerFlushHook.class)
				.doesNotHaveBean(AggregateTrackingPostProcessor.class));
	}

	@Test
	void withoutHibernateOnlyRepositoryCallsAreTracked() {
		this.runner.withClassLoader(new FilteredClassLoader(SessionFactoryImplementor.class))
			.run((context) -> assertThat(context).doesNotHaveBean(FlushedAggregateEventsRegistrar.class)
				.doesNotHaveBean(EntityManagerFlushHook.class)
				.hasSingleBean(AggregateTrackingPostProcessor.class));
	}

	@Test
	void withoutSpringDataNeitherHookIsInstalled() {
		this.runner.withClassLoader(new FilteredClassLoader(DomainEvents.class, RepositoryFactoryBeanSupport.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(FlushedAggregateEventsRegistrar.class)
				.doesNotHaveBean(AggregateTrackingPostProcessor.class));
	}

}
