package dev.outboxstarter.metrics;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxMonitoring;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the outbox's Micrometer meters, when the application has a meter registry.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, OutboxMonitoring.class })
final class OutboxMetricsAutoConfiguration {

	@Bean
	OutboxMetrics outboxMetrics(MeterRegistry registry, OutboxMonitoring monitoring) {
		return new OutboxMetrics(registry, monitoring);
	}

	@Bean
	@ConditionalOnBooleanProperty("outbox.inbox.enabled")
	InboxMetrics outboxInboxMetrics(MeterRegistry registry) {
		return new InboxMetrics(registry);
	}

	@Bean
	FastPathMetrics outboxFastPathMetrics(OutboxMonitoring monitoring) {
		return new FastPathMetrics(monitoring);
	}

	@Bean
	RelayMetrics outboxRelayMetrics(OutboxMonitoring monitoring) {
		return new RelayMetrics(monitoring);
	}

	@Bean
	AvailabilityMetrics outboxAvailabilityMetrics(OutboxMonitoring monitoring) {
		return new AvailabilityMetrics(monitoring);
	}

}
