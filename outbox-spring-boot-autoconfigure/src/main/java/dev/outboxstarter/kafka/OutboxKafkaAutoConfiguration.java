package dev.outboxstarter.kafka;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.core.OutboxProperties;
import dev.outboxstarter.operations.OutboxMonitoring;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The Kafka transport, on the application's producer factory (and so its {@code spring.kafka.*}
 * settings).
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(KafkaTemplate.class)
@ConditionalOnBean({ OutboxMonitoring.class, ProducerFactory.class })
final class OutboxKafkaAutoConfiguration {

	@Bean
	KafkaOutboxTransport kafkaOutboxTransport(ProducerFactory<?, ?> producerFactory, OutboxProperties properties) {
		return KafkaOutboxTransport.on(producerFactory, properties.getPublishTimeout());
	}

}
