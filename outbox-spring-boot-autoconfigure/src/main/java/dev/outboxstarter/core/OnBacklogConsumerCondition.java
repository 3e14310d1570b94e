package dev.outboxstarter.core;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;

/**
 * Matches when something can read the backlog: Micrometer (the backlog gauges) or Spring Boot's health
 * support (the health indicator).
 */
class OnBacklogConsumerCondition extends AnyNestedCondition {

	OnBacklogConsumerCondition() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
	static class MicrometerPresent {

	}

	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	static class HealthPresent {

	}

}
