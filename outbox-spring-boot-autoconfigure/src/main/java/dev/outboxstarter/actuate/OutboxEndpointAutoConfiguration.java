package dev.outboxstarter.actuate;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code outbox} actuator endpoint, when it is available (its access is not
 * none and it is exposed, as for any endpoint). Its access is read-only unless
 * {@code management.endpoint.outbox.access} (or {@code management.endpoints.access.default}) says
 * otherwise.
 */
@AutoConfiguration(after = { OutboxAutoConfiguration.class, OutboxValuesVisibilityAutoConfiguration.class })
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean({ OutboxMonitoring.class, OutboxAdministration.class, DeadEvents.class,
		OutboxValuesVisibility.class })
@ConditionalOnAvailableEndpoint(OutboxEndpoint.class)
final class OutboxEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OutboxEndpoint outboxEndpoint(OutboxMonitoring monitoring, OutboxAdministration administration,
			DeadEvents deadEvents, OutboxValuesVisibility valuesVisibility) {
		return new OutboxEndpoint(monitoring, administration, deadEvents, valuesVisibility);
	}

}
