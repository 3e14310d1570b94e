package dev.outboxstarter.testsupport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads everything a topic holds, from the beginning, as a consumer would receive it.
 */
public final class TopicRecorder implements AutoCloseable {

	private final KafkaConsumer<String, String> consumer;

	private final List<Received> received = new ArrayList<>();

	public TopicRecorder(String bootstrapServers, String topic) {
		this(bootstrapServers, topic, IsolationLevel.READ_UNCOMMITTED);
	}

	private TopicRecorder(String bootstrapServers, String topic, IsolationLevel isolationLevel) {
		Properties config = new Properties();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel.toString());
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "recorder-" + UUID.randomUUID());
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
		this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
		List<TopicPartition> partitions = partitionsOf(this.consumer, topic);
		this.consumer.assign(partitions);
		this.consumer.seekToBeginning(partitions);
	}

	/**
	 * A recorder that, like a consumer with {@code isolation.level=read_committed}, receives no record
	 * of an aborted Kafka transaction, and none of an open one until it commits.
	 * @param bootstrapServers the broker
	 * @param topic the topic
	 * @return the recorder
	 */
	public static TopicRecorder readCommitted(String bootstrapServers, String topic) {
		return new TopicRecorder(bootstrapServers, topic, IsolationLevel.READ_COMMITTED);
	}

	/**
	 * The topic's partitions, once the consumer's broker knows them: a topic just created may not be
	 * in the broker's metadata yet, and a consumer assigned none of its partitions fails every poll.
	 * @param consumer the consumer to ask
	 * @param topic the topic
	 * @return its partitions
	 */
	public static List<TopicPartition> partitionsOf(Consumer<?, ?> consumer, String topic) {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (true) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30))
				.stream()
				.map((info) -> new TopicPartition(topic, info.partition()))
				.toList();
			if (!partitions.isEmpty()) {
				return partitions;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Topic " + topic + " has no partitions the consumer can see after 30 s");
			}
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
		}
	}

	/**
	 * Polls once and returns everything received so far, in the order each partition delivered it.
	 * @return the records so far
	 */
	public synchronized List<Received> poll() {
		for (ConsumerRecord<String, String> record : this.consumer.poll(Duration.ofMillis(100))) {
			Map<String, String> headers = new HashMap<>();
			for (Header header : record.headers()) {
				headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
			}
			this.received.add(new Received(record.partition(), record.key(), record.value(), headers));
		}
		return List.copyOf(this.received);
	}

	/**
	 * Polls until everything the topic held when called is received, and returns everything received.
	 * @return the records so far
	 */
	public synchronized List<Received> pollToEnd() {
		Map<TopicPartition, Long> end = this.consumer.endOffsets(this.consumer.assignment());
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (end.entrySet().stream().anyMatch((partition) -> this.consumer.position(partition.getKey()) < partition.getValue())) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The topic's end " + end + " not reached after 30 s");
			}
			poll();
		}
		return List.copyOf(this.received);
	}

	@Override
	public void close() {
		this.consumer.close(Duration.ofSeconds(5));
	}

	/**
	 * One received record.
	 *
	 * @param partition its partition
	 * @param key its key
	 * @param value its value
	 * @param headers its headers
	 */
	public record Received(int partition, String key, String value, Map<String, String> headers) {

		public String header(String name) {
			return this.headers.get(name);
		}

	}

}
