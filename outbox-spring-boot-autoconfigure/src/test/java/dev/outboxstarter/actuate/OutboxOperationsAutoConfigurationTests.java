package dev.outboxstarter.autoconfigure;

import java.util.UUID;

import dev.outboxstarter.actuate.OutboxEndpoint;
import dev.outboxstarter.actuate.OutboxHealthIndicator;
import dev.outboxstarter.core.backlog.BacklogMonitor;
import dev.outboxstarter.core.capture.OutboxCapture;
import dev.outboxstarter.metrics.AvailabilityMetrics;
import dev.outboxstarter.metrics.FastPathMetrics;
import dev.outboxstarter.metrics.OutboxMetrics;
import dev.outboxstarter.metrics.RelayMetrics;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the operations side is there: meters with a meter registry, the health indicator unless it is
 * disabled, the endpoint only when it is available like any actuator endpoint, and no backlog queries
 * when nothing could read them.
 */
class OutboxOperationsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, HealthContributorAutoConfiguration.class,
				EndpointAutoConfiguration.class, OutboxAutoConfiguration.class, OutboxMetricsAutoConfiguration.class,
				OutboxHealthContributorAutoConfiguration.class, OutboxEndpointAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void metersAndHealthComeWithTheirLibrariesAndTheEndpointOnlyWhenExposed() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(BacklogMonitor.class)
				.hasSingleBean(OutboxMetrics.class)
				.hasSingleBean(FastPathMetrics.class)
				.hasSingleBean(AvailabilityMetrics.class)
				.hasSingleBean(RelayMetrics.class)
				.hasBean("outboxHealthIndicator")
				.hasSingleBean(OutboxHealthIndicator.class)
				.doesNotHaveBean(OutboxEndpoint.class);
			assertThat(context.getBean(OutboxCapture.class)).isNotNull();
		});
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=outbox")
			.run((context) -> assertThat(context).hasSingleBean(OutboxEndpoint.class));
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=outbox",
					"management.endpoint.outbox.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(OutboxEndpoint.class));
	}

	@Test
	void anInstanceWithoutARelayHasNoRelayAge() {
		this.runner.withPropertyValues("outbox.relay.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RelayMetrics.class)
				.hasSingleBean(OutboxMetrics.class));
	}

	@Test
	void healthIndicatorCanBeSwitchedOffLikeAnyOther() {
		this.runner.withPropertyValues("management.health.outbox.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(OutboxHealthIndicator.class)
				.hasSingleBean(OutboxMetrics.class));
	}

	@Test
	void withoutMicrometerOrHealthSupportTheBacklogIsNeverRead() {
		this.runner
			.withClassLoader(new FilteredClassLoader("io.micrometer.core", "org.springframework.boot.health.contributor"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(BacklogMonitor.class)
				.doesNotHaveBean(OutboxMetrics.class));
	}

}
