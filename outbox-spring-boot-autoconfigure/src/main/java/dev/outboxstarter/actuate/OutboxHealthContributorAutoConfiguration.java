package dev.outboxstarter.actuate;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.core.OutboxProperties;
import dev.outboxstarter.operations.OutboxMonitoring;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code outbox} health indicator. Like every indicator it is part of the
 * default health group only, not of the liveness or readiness groups unless the application adds it.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(OutboxMonitoring.class)
@ConditionalOnEnabledHealthIndicator("outbox")
@EnableConfigurationProperties(OutboxHealthProperties.class)
final class OutboxHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "outboxHealthIndicator")
	OutboxHealthIndicator outboxHealthIndicator(OutboxMonitoring monitoring, OutboxHealthProperties health,
			OutboxProperties properties) {
		health.checkLongerThanRelayPollInterval(properties.getRelay().getPollInterval());
		return new OutboxHealthIndicator(monitoring, health.getMaxOldestPendingAge(), health.getMaxTimeSinceRelayRun(),
				health.getMaxDeadEvents());
	}

}
