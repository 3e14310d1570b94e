package dev.outboxstarter.tracing;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of the {@code outbox.publish} observation around every send and, with Micrometer
 * Tracing, of the trace context stored with each event at capture and continued when it is published.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean({ ObservationRegistry.class, OutboxMonitoring.class })
final class OutboxObservationAutoConfiguration {

	@Bean
	OutboxTransportDecorator outboxObservationDecorator(ObservationRegistry registry,
			ObjectProvider<OutboxPublishObservationConvention> convention,
			ObjectProvider<TraceContextHeaders> traceHeaders) {
		return (transport) -> new ObservedOutboxTransport(transport, registry, convention.getIfUnique(),
				traceHeaders.getIfAvailable());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Tracer.class)
	@ConditionalOnBean({ Tracer.class, Propagator.class })
	static class TracingConfiguration {

		@Bean
		TraceContextHeaders outboxTraceContextHeaders(Tracer tracer, Propagator propagator) {
			return new TraceContextHeaders(tracer, propagator);
		}

	}

}
