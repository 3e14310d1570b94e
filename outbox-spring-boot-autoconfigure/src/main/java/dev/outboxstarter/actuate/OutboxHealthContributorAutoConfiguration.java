package dev.outboxstarter.autoconfigure;

import dev.outboxstarter.actuate.OutboxHealthIndicator;
import dev.outboxstarter.core.backlog.BacklogMonitor;
import dev.outboxstarter.core.store.OutboxStore;
import dev.outboxstarter.core.publish.Outages;
import dev.outboxstarter.core.relay.OutboxRelay;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code outbox} health indicator. Like every indicator it is part of the
 * default health group only, not of the liveness or readiness groups unless the application adds it.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(OutboxStore.class)
@ConditionalOnEnabledHealthIndicator("outbox")
public final class OutboxHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "outboxHealthIndicator")
	OutboxHealthIndicator outboxHealthIndicator(ObjectProvider<BacklogMonitor> backlog,
			ObjectProvider<OutboxRelay> relay, ObjectProvider<Outages> outages, OutboxProperties properties) {
		OutboxProperties.Health health = properties.getHealth();
		return new OutboxHealthIndicator(properties.getRelay().getMode().value(), backlog.getIfAvailable(),
				relay.getIfAvailable(), outages.getIfAvailable(),
				health.getMaxOldestPendingAge(), health.getMaxTimeSinceRelayRun(), health.getMaxDeadEvents());
	}

}
