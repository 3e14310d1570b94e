package dev.outboxstarter.kafka;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.core.publish.OutboxMessage;
import dev.outboxstarter.testsupport.SendFailure;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestKafka;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The producer settings the outbox's Kafka transport derives from the application's producer factory,
 * and which of a real producer's failures it reports as the broker being unavailable.
 */
class KafkaOutboxTransportTests {

	private static final String TOPIC = "kafka-transport-tests";

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

	@Test
	void brokerThatCannotBeReachedIsUnavailable() throws Exception {
		try (TcpForwarder closed = TestKafka.unreachableAddress()) {
			KafkaOutboxTransport transport = KafkaOutboxTransport.on(new DefaultKafkaProducerFactory<>(
					Map.of("bootstrap.servers", closed.address(), ProducerConfig.MAX_BLOCK_MS_CONFIG, 300)));
			try {
				Throwable failure = SendFailure.of(transport, message("x"));

				assertThat(transport.isUnavailable(failure)).as("unavailable: %s", failure).isTrue();
			}
			finally {
				transport.destroy();
			}
		}
	}

	@Test
	void recordTooLargeIsTheMessagesOwnFailure() throws Exception {
		TestKafka.createTopic(TOPIC, 1);
		KafkaOutboxTransport transport = KafkaOutboxTransport.on(new DefaultKafkaProducerFactory<>(
				Map.of("bootstrap.servers", TestKafka.bootstrapServers(), ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1024)));
		try {
			Throwable failure = SendFailure.of(transport, message("x".repeat(2048)));

			assertThat(failure).hasStackTraceContaining("RecordTooLargeException");
			assertThat(transport.isUnavailable(failure)).isFalse();
		}
		finally {
			transport.destroy();
		}
	}

	private static Map<String, Object> outboxProducerConfiguration(Map<String, Object> application) {
		KafkaOutboxTransport transport = KafkaOutboxTransport.on(new DefaultKafkaProducerFactory<>(application));
		KafkaTemplate<?, ?> template = (KafkaTemplate<?, ?>) ReflectionTestUtils.getField(transport, "template");
		return template.getProducerFactory().getConfigurationProperties();
	}

	private static OutboxMessage message(String payload) {
		return new OutboxMessage(UUID.randomUUID(), "test", null, null, TOPIC, "key", payload, Map.of(), Instant.now());
	}

}
