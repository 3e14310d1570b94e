package dev.outboxstarter.console;

import java.time.Clock;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.actuate.OutboxValuesVisibility;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * Auto-configuration of the operator console: the {@code outboxconsole} endpoint, when it is available
 * (exposed over HTTP, as any endpoint), and the sampling of the outbox's meters for its charts.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = "dev.outboxstarter.actuate.OutboxValuesVisibilityAutoConfiguration")
@ConditionalOnBean({ OutboxMonitoring.class, OutboxAdministration.class, DeadEvents.class,
		OutboxValuesVisibility.class })
@ConditionalOnAvailableEndpoint(OutboxConsoleEndpoint.class)
@EnableConfigurationProperties(OutboxConsoleProperties.class)
@ImportRuntimeHints(OutboxConsoleRuntimeHints.class)
final class OutboxConsoleAutoConfiguration {

	@Bean
	MeterHistory outboxConsoleMeterHistory(ObjectProvider<MeterRegistry> meterRegistry,
			OutboxConsoleProperties properties, ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers) {
		// Spring Boot's builder, as for the outbox's own threads: virtual with spring.threads.virtual.enabled.
		return new MeterHistory(meterRegistry, properties.getSampleInterval(), properties.samples(), Clock.systemUTC(),
				() -> {
					SimpleAsyncTaskScheduler scheduler = schedulers.getIfAvailable(SimpleAsyncTaskSchedulerBuilder::new)
						.threadNamePrefix("outbox-console-")
						.build();
					scheduler.setDaemon(true);
					return scheduler;
				});
	}

	@Bean
	@ConditionalOnMissingBean
	OutboxConsoleEndpoint outboxConsoleEndpoint(OutboxMonitoring monitoring, OutboxAdministration administration,
			DeadEvents deadEvents, MeterHistory outboxConsoleMeterHistory, OutboxConsoleProperties properties,
			OutboxValuesVisibility valuesVisibility, ObjectProvider<EndpointAccessResolver> accessResolver,
			ObjectProvider<JsonMapper> jsonMapper) {
		EndpointAccessResolver resolver = accessResolver.getIfAvailable();
		Access access = (resolver != null) ? resolver.accessFor(EndpointId.of("outboxconsole"), Access.READ_ONLY)
				: Access.READ_ONLY;
		return new OutboxConsoleEndpoint(monitoring, administration, deadEvents, outboxConsoleMeterHistory,
				jsonMapper.getIfAvailable(JsonMapper::new), access, properties.getOperatorRoles(), valuesVisibility,
				properties.getRepublishLimit());
	}

}
