package dev.outboxstarter.autoconfigure;

import java.util.List;

import dev.outboxstarter.core.backlog.BacklogMonitor;
import dev.outboxstarter.core.fastpath.FastPathDispatcher;
import dev.outboxstarter.core.publish.Outages;
import dev.outboxstarter.core.publish.OutboxTransports;
import dev.outboxstarter.core.relay.OutboxRelay;
import dev.outboxstarter.core.store.OutboxStore;
import dev.outboxstarter.metrics.AvailabilityMetrics;
import dev.outboxstarter.metrics.FastPathMetrics;
import dev.outboxstarter.metrics.InboxMetrics;
import dev.outboxstarter.metrics.OutboxMetrics;
import dev.outboxstarter.metrics.RelayMetrics;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the outbox's Micrometer meters, when the application has a meter registry.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, OutboxStore.class })
public final class OutboxMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OutboxMetrics outboxMetrics(MeterRegistry registry, OutboxTransports transports,
			ObjectProvider<BacklogMonitor> backlog, OutboxProperties properties) {
		return new OutboxMetrics(registry, List.copyOf(transports.names()), properties.getRelay().getMode().value(),
				backlog.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("outbox.inbox.enabled")
	InboxMetrics outboxInboxMetrics(MeterRegistry registry) {
		return new InboxMetrics(registry);
	}

	@Bean
	@ConditionalOnBean(FastPathDispatcher.class)
	FastPathMetrics outboxFastPathMetrics(FastPathDispatcher fastPath) {
		return new FastPathMetrics(fastPath);
	}

	@Bean
	@ConditionalOnBean(OutboxRelay.class)
	RelayMetrics outboxRelayMetrics(OutboxRelay relay) {
		return new RelayMetrics(relay);
	}

	@Bean
	@ConditionalOnBean(Outages.class)
	AvailabilityMetrics outboxAvailabilityMetrics(Outages outages) {
		return new AvailabilityMetrics(outages);
	}

}
