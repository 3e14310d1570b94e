package dev.outboxstarter.sample.kafka;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.kafka.config.TopicBuilder;

/**
 * Creates the orders topic on start-up if the broker does not have it (Spring Boot's
 * {@code KafkaAdmin} creates every {@link NewTopic} bean).
 */
@Configuration(proxyBeanMethods = false)
@Profile("!rabbit")
class KafkaTopicConfiguration {

	@Bean
	NewTopic ordersTopic(@Value("${sample.topic:orders}") String topic,
			@Value("${sample.topic-partitions:3}") int partitions) {
		return TopicBuilder.name(topic).partitions(partitions).build();
	}

}
