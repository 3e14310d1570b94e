package dev.outboxstarter.console;

import java.time.Clock;
import java.util.Set;

import dev.outboxstarter.DeadEvents;
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
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the operator console: the {@code outboxconsole} endpoint, when it is available
 * (exposed over HTTP, as any endpoint), and the sampling of the outbox's meters for its charts.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnBean({ OutboxMonitoring.class, OutboxAdministration.class, DeadEvents.class })
@ConditionalOnAvailableEndpoint(OutboxConsoleEndpoint.class)
@EnableConfigurationProperties(OutboxConsoleProperties.class)
@ImportRuntimeHints(OutboxConsoleRuntimeHints.class)
final class OutboxConsoleAutoConfiguration {

	/** The {@code outbox} endpoint's properties, whose rule for values the console applies as well. */
	private static final String OUTBOX_ENDPOINT = "management.endpoint.outbox.";

	@Bean
	MeterHistory outboxConsoleMeterHistory(ObjectProvider<MeterRegistry> meterRegistry,
			OutboxConsoleProperties properties) {
		return new MeterHistory(meterRegistry, properties.getSampleInterval(), properties.samples(), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	OutboxConsoleEndpoint outboxConsoleEndpoint(OutboxMonitoring monitoring, OutboxAdministration administration,
			DeadEvents deadEvents, MeterHistory outboxConsoleMeterHistory, OutboxConsoleProperties properties,
			ObjectProvider<EndpointAccessResolver> accessResolver, ObjectProvider<JsonMapper> jsonMapper,
			Environment environment) {
		EndpointAccessResolver resolver = accessResolver.getIfAvailable();
		Access access = (resolver != null) ? resolver.accessFor(EndpointId.of("outboxconsole"), Access.READ_ONLY)
				: Access.READ_ONLY;
		Binder binder = Binder.get(environment);
		Show showValues = binder.bind(OUTBOX_ENDPOINT + "show-values", Show.class).orElse(Show.NEVER);
		Set<String> showValuesRoles = binder.bind(OUTBOX_ENDPOINT + "roles", Bindable.setOf(String.class))
			.orElse(Set.of());
		return new OutboxConsoleEndpoint(monitoring, administration, deadEvents, outboxConsoleMeterHistory,
				jsonMapper.getIfAvailable(JsonMapper::new), access, properties.getOperatorRoles(), showValues,
				showValuesRoles, properties.getRepublishLimit());
	}

}
