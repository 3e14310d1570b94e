package dev.outboxstarter.actuate;

import java.util.UUID;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import io.micrometer.core.instrument.MeterRegistry;
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
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * When the operations side is there: each role of the operations view a bean of its own, meters with a
 * meter registry, the health indicator unless it is disabled, the endpoint only when it is available
 * like any actuator endpoint, and no backlog queries when nothing could read them.
 */
class OutboxOperationsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, HealthContributorAutoConfiguration.class,
				EndpointAutoConfiguration.class, OutboxAutoConfiguration.class, StarterAutoConfigurations.METRICS,
				OutboxHealthContributorAutoConfiguration.class, OutboxValuesVisibilityAutoConfiguration.class,
				OutboxEndpointAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void metersAndHealthComeWithTheirLibrariesAndTheEndpointOnlyWhenExposed() {
		this.runner.run((context) -> {
			assertThat(context).hasBean("outboxHealthIndicator")
				.hasSingleBean(OutboxHealthIndicator.class)
				.doesNotHaveBean(OutboxEndpoint.class);
			assertThat(context.getBean(OutboxMonitoring.class).latestBacklog()).isNotNull();
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("outbox.relay.mode").gauge()).isNotNull();
			assertThat(registry.find("outbox.backlog.pending").gauge()).isNotNull();
			assertThat(registry.find("outbox.fastpath.queue.size").gauge()).isNotNull();
			assertThat(registry.find("outbox.transports.unavailable").gauge()).isNotNull();
			assertThat(registry.find("outbox.relay.last.run.age").timeGauge()).isNotNull();
		});
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=outbox")
			.run((context) -> assertThat(context).hasSingleBean(OutboxEndpoint.class)
				.hasSingleBean(OutboxValuesVisibility.class));
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=outbox",
					"management.endpoint.outbox.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(OutboxEndpoint.class));
	}

	@Test
	void eachRoleIsABeanOfItsOwnAndTheApplicationsAdministrationReplacesTheStartersForTheEndpoint() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(OutboxMonitoring.class)
			.hasSingleBean(OutboxAdministration.class)
			.hasSingleBean(OutboxTesting.class));
		OutboxAdministration discardsAnything = mock(OutboxAdministration.class);
		given(discardsAnything.discard(any())).willReturn(true);
		this.runner.withBean(OutboxAdministration.class, () -> discardsAnything)
			.withPropertyValues("management.endpoints.web.exposure.include=outbox")
			.run((context) -> {
				assertThat(context).getBean(OutboxAdministration.class).isSameAs(discardsAnything);
				assertThat(context.getBean(OutboxEndpoint.class).discard(UUID.randomUUID()).events()).isOne();
			});
	}

	@Test
	void anInstanceWithoutARelayHasNoRelayAge() {
		this.runner.withPropertyValues("outbox.relay.enabled=false")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("outbox.relay.last.run.age").timeGauge()).isNull();
				assertThat(registry.find("outbox.relay.mode").gauge()).isNotNull();
			});
	}

	@Test
	void anInstanceWithoutAFastPathHasNoFastPathQueueMeters() {
		this.runner.withPropertyValues("outbox.fast-path.enabled=false").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("outbox.fastpath.queue.size").gauge()).isNull();
			assertThat(registry.find("outbox.fastpath.overflow").functionCounter()).isNull();
			assertThat(registry.find("outbox.relay.last.run.age").timeGauge()).isNotNull();
		});
	}

	@Test
	void healthIndicatorCanBeSwitchedOffLikeAnyOther() {
		this.runner.withPropertyValues("management.health.outbox.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(OutboxHealthIndicator.class);
				assertThat(context.getBean(MeterRegistry.class).find("outbox.relay.mode").gauge()).isNotNull();
			});
	}

	@Test
	void withoutMicrometerOrHealthSupportTheBacklogIsNeverRead() {
		this.runner
			.withClassLoader(new FilteredClassLoader("io.micrometer.core", "org.springframework.boot.health.contributor"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("outboxMetrics");
				assertThat(context.getBean(OutboxMonitoring.class).latestBacklog()).isNull();
			});
	}

}
