package dev.outboxstarter.schemaregistry;

import java.time.Duration;
import java.util.Map;

import dev.outboxstarter.OutboxConfigurationException;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The payload serializers are there when a registry is named and its serde is on the class path, and
 * take their settings from {@code outbox.schema-registry.*}. No registry is contacted until an event is
 * serialized.
 */
class SchemaRegistryAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(AvroSchemaRegistryAutoConfiguration.class,
					ProtobufSchemaRegistryAutoConfiguration.class));

	@Test
	void withoutARegistryUrlThereAreNoSerializers() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(AvroPayloadSerializer.class)
			.doesNotHaveBean(ProtobufPayloadSerializer.class)
			.doesNotHaveBean(SchemaRegistryProperties.class));
	}

	@Test
	void aRegistryUrlBringsTheAvroAndProtobufSerializers() {
		this.contextRunner.withPropertyValues("outbox.schema-registry.url=http://registry:8080/apis/registry/v2")
			.run((context) -> {
				assertThat(context).hasSingleBean(AvroPayloadSerializer.class)
					.hasSingleBean(ProtobufPayloadSerializer.class);
				assertThat(context.getBean(AvroPayloadSerializer.class).format()).isEqualTo("avro");
				assertThat(context.getBean(ProtobufPayloadSerializer.class).format()).isEqualTo("protobuf");
			});
	}

	@Test
	void eachFormatNeedsItsSerdeOnTheClassPath() {
		this.contextRunner.withPropertyValues("outbox.schema-registry.url=http://registry:8080")
			.withClassLoader(new FilteredClassLoader(ProtobufKafkaSerializer.class))
			.run((context) -> assertThat(context).hasSingleBean(AvroPayloadSerializer.class)
				.doesNotHaveBean(ProtobufPayloadSerializer.class));
		this.contextRunner.withPropertyValues("outbox.schema-registry.url=http://registry:8080")
			.withClassLoader(new FilteredClassLoader(AvroKafkaSerializer.class))
			.run((context) -> assertThat(context).hasSingleBean(ProtobufPayloadSerializer.class)
				.doesNotHaveBean(AvroPayloadSerializer.class));
	}

	@Test
	void propertiesAreBoundWithConfluentsWireFormatAutoRegistrationAndFiveSecondsByDefault() {
		this.contextRunner.withPropertyValues("outbox.schema-registry.url=http://registry:8080").run((context) -> {
			SchemaRegistryProperties properties = context.getBean(SchemaRegistryProperties.class);
			assertThat(properties.getWireFormat()).isEqualTo(WireFormat.CONFLUENT);
			assertThat(properties.isAutoRegister()).isTrue();
			assertThat(properties.getRequestTimeout()).isEqualTo(Duration.ofSeconds(5));
			assertThat(properties.getProperties()).isEmpty();
			assertThat(properties.apiUrl()).isEqualTo("http://registry:8080/apis/registry/v2");
		});
	}

	@Test
	void propertiesAreBound() {
		this.contextRunner
			.withPropertyValues("outbox.schema-registry.url=https://registry.example.com/apis/registry/v2/",
					"outbox.schema-registry.wire-format=apicurio", "outbox.schema-registry.auto-register=false",
					"outbox.schema-registry.request-timeout=2s",
					"outbox.schema-registry.properties[apicurio.auth.username]=shop")
			.run((context) -> {
				SchemaRegistryProperties properties = context.getBean(SchemaRegistryProperties.class);
				assertThat(properties.getWireFormat()).isEqualTo(WireFormat.APICURIO);
				assertThat(properties.isAutoRegister()).isFalse();
				assertThat(properties.getRequestTimeout()).isEqualTo(Duration.ofSeconds(2));
				assertThat(properties.getProperties()).containsExactly(Map.entry("apicurio.auth.username", "shop"));
				assertThat(properties.apiUrl()).isEqualTo("https://registry.example.com/apis/registry/v2");
				assertThat(properties.serdeSettings()).containsEntry("apicurio.auth.username", "shop")
					.containsEntry("apicurio.registry.auto-register", false)
					.containsEntry("apicurio.registry.use-id", "globalId")
					.containsEntry("apicurio.registry.headers.enabled", false);
			});
	}

	@Test
	void anUnknownWireFormatIsRefusedNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("outbox.schema-registry.url=http://registry:8080",
					"outbox.schema-registry.wire-format=avro")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.satisfies((failure) -> assertThat(failure).hasMessageContaining("avro")
					.hasMessageContaining(WireFormat.class.getName()))
				.satisfies((failure) -> assertThat(context.getStartupFailure()).hasStackTraceContaining(
						BindException.class.getName() + ": Failed to bind properties under 'outbox.schema-registry.wire-format'")));
	}

	@Test
	void aUrlThatIsNotHttpIsRefused() {
		this.contextRunner.withPropertyValues("outbox.schema-registry.url=registry:8080")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("outbox.schema-registry.url 'registry:8080' is not an http or https URL"));
	}

	@Test
	void aSerializerSettingThatTheModuleSetsIsRefusedInThePassThroughProperties() {
		this.contextRunner
			.withPropertyValues("outbox.schema-registry.url=http://registry:8080",
					"outbox.schema-registry.properties[apicurio.registry.url]=http://other:8080")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("'apicurio.registry.url'")
				.hasMessageContaining("set outbox.schema-registry.url instead"));
	}

	@Test
	void anApplicationsOwnSerializerIsKept() {
		this.contextRunner.withPropertyValues("outbox.schema-registry.url=http://registry:8080")
			.withUserConfiguration(OwnAvroConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(AvroPayloadSerializer.class)
				.hasBean("ownAvroPayloadSerializer"));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnAvroConfiguration {

		@Bean
		AvroPayloadSerializer ownAvroPayloadSerializer(SchemaRegistryProperties properties) {
			return new AvroPayloadSerializer(properties);
		}

	}

}
