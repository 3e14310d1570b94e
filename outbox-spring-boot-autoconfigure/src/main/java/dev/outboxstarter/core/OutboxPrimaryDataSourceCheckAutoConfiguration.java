package dev.outboxstarter.core;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.internal.capture.OutboxCapture;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Fails start-up when the outbox is enabled and the context has several data sources of which none is
 * the primary one: the outbox, whose settings configure the primary data source's outbox, would not
 * start, and the application's outbox events would be neither stored nor refused.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass({ JdbcTemplate.class, JsonMapper.class })
@ConditionalOnBooleanProperty(name = "outbox.enabled", matchIfMissing = true)
@ConditionalOnBean(DataSource.class)
@ConditionalOnMissingBean(OutboxCapture.class)
final class OutboxPrimaryDataSourceCheckAutoConfiguration {

	@Bean
	InitializingBean outboxPrimaryDataSourceCheck(ListableBeanFactory beanFactory) {
		return () -> {
			throw new OutboxConfigurationException("The outbox cannot start: the context has several DataSource "
					+ "beans (" + String.join(", ", beanFactory.getBeanNamesForType(DataSource.class))
					+ ") and none of them is the primary one",
					"Mark the DataSource of the outbox that the outbox.* properties configure @Primary (the others "
							+ "get outboxes of their own, see outbox.datasources), or declare the others with "
							+ "@Bean(defaultCandidate = false), or set outbox.enabled=false");
		};
	}

}
