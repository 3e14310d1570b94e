package dev.outboxstarter.schemaregistry;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of Avro payloads, when Apicurio's Avro serde is on the class path and
 * {@code outbox.schema-registry.url} names a registry. Before the outbox's, whose capture looks the
 * payload serializers up.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = OutboxAutoConfiguration.class)
@ConditionalOnClass(AvroKafkaSerializer.class)
@ConditionalOnProperty("outbox.schema-registry.url")
@EnableConfigurationProperties(SchemaRegistryProperties.class)
public final class AvroSchemaRegistryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AvroPayloadSerializer avroPayloadSerializer(SchemaRegistryProperties properties) {
		return new AvroPayloadSerializer(properties);
	}

}
