package dev.outboxstarter.compatibility;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.awaitility.Awaitility.await;

/**
 * One Kafka broker in the test JVM, started by the first test class that asks for it and shared by
 * the others.
 */
final class KafkaBroker {

	private static EmbeddedKafkaKraftBroker broker;

	private KafkaBroker() {
	}

	static synchronized String bootstrapServers() {
		if (broker == null) {
			broker = new EmbeddedKafkaKraftBroker(1, 1, CompatibilityTests.TOPIC);
			// It would otherwise publish its address as spring.kafka.bootstrap-servers, for every context.
			broker.brokerListProperty("compatibility.kafka.brokers");
			broker.afterPropertiesSet();
		}
		return broker.getBrokersAsString();
	}

	/**
	 * Waits until a record with a key arrives on a topic, read from its beginning.
	 * @param topic the topic
	 * @param key the record's key
	 * @return the record
	 */
	static ConsumerRecord<String, String> awaitRecord(String topic, String key) {
		Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
				ConsumerConfig.GROUP_ID_CONFIG, "compatibility-" + UUID.randomUUID(),
				ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
				new StringDeserializer())) {
			consumer.subscribe(List.of(topic));
			return await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ZERO)
				.until(() -> find(consumer.poll(Duration.ofMillis(100)), key), (found) -> found != null);
		}
	}

	private static ConsumerRecord<String, String> find(Iterable<ConsumerRecord<String, String>> records,
			String key) {
		for (ConsumerRecord<String, String> record : records) {
			if (key.equals(record.key())) {
				return record;
			}
		}
		return null;
	}

}
