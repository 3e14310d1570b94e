package dev.outboxstarter.autoconfigure;

import dev.outboxstarter.kafka.KafkaOutboxTransport;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The Kafka transport, on the application's producer factory (and so its {@code spring.kafka.*}
 * settings).
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(KafkaTemplate.class)
@ConditionalOnBean(ProducerFactory.class)
@ConditionalOnBooleanProperty(name = "outbox.enabled", matchIfMissing = true)
public final class OutboxKafkaAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KafkaOutboxTransport kafkaOutboxTransport(ProducerFactory<?, ?> producerFactory) {
		return KafkaOutboxTransport.on(producerFactory);
	}

}
