package dev.outboxstarter.test;

import java.util.List;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.spi.CommittedEventsListener;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The test kit's beans, imported by {@link AutoConfigureOutbox @AutoConfigureOutbox}: the views of
 * what was captured and published, the relay a test drains, and a {@link RecordingOutboxTransport}
 * for each transport named by {@code outbox.test.recorded-transports}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnBean({ OutboxMonitoring.class, OutboxTesting.class })
@Import(OutboxTestAutoConfiguration.RecordingTransportsRegistrar.class)
public final class OutboxTestAutoConfiguration {

	@Bean
	CapturedOutboxEvents capturedOutboxEvents(ObjectProvider<OutboxTesting> testing, ObjectProvider<JsonMapper> json,
			ObjectProvider<OutboxPayloadSerializer> serializers) {
		return new CapturedOutboxEvents(testing, payloadReader(json, serializers));
	}

	@Bean
	CommittedEventsListener capturedOutboxEventsListener(CapturedOutboxEvents captured) {
		return captured::committed;
	}

	@Bean
	PublishedOutboxEvents publishedOutboxEvents(ObjectProvider<JsonMapper> json,
			ObjectProvider<OutboxPayloadSerializer> serializers) {
		return new PublishedOutboxEvents(payloadReader(json, serializers));
	}

	private static PayloadReader payloadReader(ObjectProvider<JsonMapper> json,
			ObjectProvider<OutboxPayloadSerializer> serializers) {
		return new PayloadReader(json.getIfAvailable(JsonMapper::new), serializers);
	}

	@Bean
	TestOutboxRelay testOutboxRelay(OutboxMonitoring monitoring, OutboxTesting testing) {
		return new TestOutboxRelay(monitoring, testing);
	}

	/**
	 * One recording transport per name: the names come from the environment, so the beans cannot be
	 * declared as {@code @Bean} methods. The default names are the annotation's: an empty
	 * {@code recordedTransports} maps to no property at all.
	 */
	static class RecordingTransportsRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware {

		private Environment environment;

		@Override
		public void setEnvironment(Environment environment) {
			this.environment = environment;
		}

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			List<String> names = Binder.get(this.environment)
				.bind("outbox.test.recorded-transports", Bindable.listOf(String.class))
				.orElse(List.of());
			for (String name : names) {
				RootBeanDefinition definition = new RootBeanDefinition(RecordingOutboxTransport.class);
				definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
				definition.setAutowireMode(RootBeanDefinition.AUTOWIRE_CONSTRUCTOR);
				registry.registerBeanDefinition("recordingOutboxTransport." + name, definition);
			}
		}

	}

}
