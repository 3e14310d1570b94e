package dev.outboxstarter.actuate;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxMonitoring;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the rule for the values of outbox events, {@link OutboxValuesVisibility}: apart
 * from the {@code outbox} endpoint, whose properties it reads, since the operator console applies it
 * where that endpoint is not exposed.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(Show.class)
@ConditionalOnBean(OutboxMonitoring.class)
@EnableConfigurationProperties(OutboxEndpointProperties.class)
final class OutboxValuesVisibilityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OutboxValuesVisibility outboxValuesVisibility(OutboxEndpointProperties properties) {
		return new OutboxValuesVisibility(properties.getShowValues(), properties.getRoles());
	}

}
