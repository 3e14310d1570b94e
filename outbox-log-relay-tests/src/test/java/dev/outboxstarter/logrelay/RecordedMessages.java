package dev.outboxstarter.logrelay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import dev.outboxstarter.testsupport.TopicRecorder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Everything a topic holds, from the beginning, as raw bytes, as a consumer receives it: key, value and
 * every header in order.
 */
final class RecordedMessages implements AutoCloseable {

	private final KafkaConsumer<byte[], byte[]> consumer;

	private final List<Message> received = new ArrayList<>();

	RecordedMessages(String bootstrapServers, String topic) {
		Properties config = new Properties();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "log-relay-recorder-" + UUID.randomUUID());
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
		this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
		List<TopicPartition> partitions = TopicRecorder.partitionsOf(this.consumer, topic);
		this.consumer.assign(partitions);
		this.consumer.seekToBeginning(partitions);
	}

	/**
	 * Polls once and returns everything received so far, each partition's records in their order.
	 * @return the messages so far
	 */
	synchronized List<Message> poll() {
		for (ConsumerRecord<byte[], byte[]> record : this.consumer.poll(Duration.ofMillis(100))) {
			List<String> headers = new ArrayList<>();
			for (Header header : record.headers()) {
				headers.add(header.key() + "=" + encode(header.value()));
			}
			this.received.add(new Message(record.partition(), encode(record.key()), encode(record.value()),
					List.copyOf(headers), lastHeader(record, "outbox-message-id"), new String(record.value())));
		}
		return List.copyOf(this.received);
	}

	/**
	 * Polls until everything the topic held when called is received, and returns everything received.
	 * @return the messages so far
	 */
	synchronized List<Message> pollToEnd() {
		Map<TopicPartition, Long> end = this.consumer.endOffsets(this.consumer.assignment());
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (end.entrySet()
			.stream()
			.anyMatch((partition) -> this.consumer.position(partition.getKey()) < partition.getValue())) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The topic's end " + end + " not reached after 30 s");
			}
			poll();
		}
		return List.copyOf(this.received);
	}

	private static String lastHeader(ConsumerRecord<byte[], byte[]> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value()) : null;
	}

	private static String encode(byte[] bytes) {
		return (bytes != null) ? Base64.getEncoder().encodeToString(bytes) : "null";
	}

	@Override
	public void close() {
		this.consumer.close(Duration.ofSeconds(5));
	}

	/**
	 * One received record, its bytes encoded so that two records compare equal exactly when their bytes do.
	 *
	 * @param partition its partition
	 * @param key its key's bytes
	 * @param value its value's bytes
	 * @param headers each header as {@code name=bytes}, in order
	 * @param messageId its {@code outbox-message-id} header
	 * @param payload its value as text
	 */
	record Message(int partition, String key, String value, List<String> headers, String messageId, String payload) {

	}

}
