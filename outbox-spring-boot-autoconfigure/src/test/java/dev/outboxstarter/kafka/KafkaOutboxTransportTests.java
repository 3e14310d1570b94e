package dev.outboxstarter.kafka;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The producer settings the outbox's Kafka transport derives from the application's producer factory.
 */
class KafkaOutboxTransportTests {

	@Test
	void outboxProducerSendsEachBatchWithoutLingering() {
		Map<String, Object> configuration = outboxProducerConfiguration(Map.of("bootstrap.servers", "localhost:9092"));

		assertThat(configuration).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 0)
			.containsEntry("bootstrap.servers", "localhost:9092");
	}

	@Test
	void lingerSetByTheApplicationIsKept() {
		Map<String, Object> configuration = outboxProducerConfiguration(
				Map.of("bootstrap.servers", "localhost:9092", ProducerConfig.LINGER_MS_CONFIG, "20"));

		assertThat(configuration).containsEntry(ProducerConfig.LINGER_MS_CONFIG, "20");
	}

	private static Map<String, Object> outboxProducerConfiguration(Map<String, Object> application) {
		KafkaOutboxTransport transport = KafkaOutboxTransport.on(new DefaultKafkaProducerFactory<>(application));
		KafkaTemplate<?, ?> template = (KafkaTemplate<?, ?>) ReflectionTestUtils.getField(transport, "template");
		return template.getProducerFactory().getConfigurationProperties();
	}

}
