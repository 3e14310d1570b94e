package dev.outboxstarter.tracing;

import java.util.UUID;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import dev.outboxstarter.testsupport.AcknowledgingTransport;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When sends are observed and trace context is carried with each event: an observation registry and
 * the outbox for the first, a tracer and a propagator besides for the second.
 */
class OutboxObservationAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				OutboxAutoConfiguration.class, OutboxObservationAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	private final ApplicationContextRunner observed = this.runner.withBean(ObservationRegistry.class,
			ObservationRegistry::create);

	private final ApplicationContextRunner traced = this.observed.withBean(Tracer.class, () -> Tracer.NOOP)
		.withBean(Propagator.class, () -> Propagator.NOOP);

	@Test
	void withAnObservationRegistrySendsAreObservedWithoutTraceHeadersUntilThereIsATracer() {
		this.observed.run((context) -> assertThat(context).hasSingleBean(OutboxTransportDecorator.class)
			.doesNotHaveBean(TraceContextHeaders.class));
	}

	@Test
	void withATracerAndAPropagatorTheTraceContextIsStoredWithEachEvent() {
		this.traced.run((context) -> assertThat(context).hasSingleBean(OutboxTransportDecorator.class)
			.hasSingleBean(TraceContextHeaders.class));
	}

	@Test
	void withATracerButNoPropagatorNoTraceContextIsStored() {
		this.observed.withBean(Tracer.class, () -> Tracer.NOOP)
			.run((context) -> assertThat(context).doesNotHaveBean(TraceContextHeaders.class));
	}

	@Test
	void withoutMicrometerTracingOnTheClasspathSendsAreStillObserved() {
		this.traced.withClassLoader(new FilteredClassLoader(Tracer.class))
			.run((context) -> assertThat(context).hasSingleBean(OutboxTransportDecorator.class)
				.doesNotHaveBean(TraceContextHeaders.class));
	}

	@Test
	void applicationsObservationConventionIsTheOneSendsAreObservedWith() {
		OutboxPublishObservationConvention convention = new DefaultOutboxPublishObservationConvention();
		this.observed.withBean(OutboxPublishObservationConvention.class, () -> convention).run((context) -> {
			OutboxTransport observed = context.getBean(OutboxTransportDecorator.class)
				.decorate(new AcknowledgingTransport("test"));
			assertThat(observed).isInstanceOf(ObservedOutboxTransport.class)
				.extracting("convention")
				.isSameAs(convention);
		});
	}

	@Test
	void withoutAnObservationRegistryNothingIsObserved() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(OutboxTransportDecorator.class));
	}

	@Test
	void withoutTheOutboxNothingIsObserved() {
		this.traced.withPropertyValues("outbox.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(OutboxTransportDecorator.class)
				.doesNotHaveBean(TraceContextHeaders.class));
	}

}
