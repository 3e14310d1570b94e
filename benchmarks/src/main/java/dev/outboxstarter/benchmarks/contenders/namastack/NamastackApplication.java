package dev.outboxstarter.benchmarks.contenders.namastack;

import java.util.List;
import java.util.concurrent.ExecutionException;

import io.namastack.outbox.Outbox;
import io.namastack.outbox.handler.OutboxHandler;
import io.namastack.outbox.handler.OutboxRecordMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * namastack-outbox (JDBC): a JDBC business insert and {@code Outbox.schedule} in one transaction; its
 * scheduler polls the records and hands them to a handler that sends to Kafka the way
 * {@code namastack-outbox-kafka}'s {@code KafkaOutboxHandler} does (that module is not available to
 * this build).
 */
@SpringBootApplication(excludeName = "dev.outboxstarter.core.OutboxAutoConfiguration")
public class NamastackApplication {

	@Service
	public static class Orders {

		private final JdbcTemplate jdbc;

		private final Outbox outbox;

		Orders(JdbcTemplate jdbc, Outbox outbox) {
			this.jdbc = jdbc;
			this.outbox = outbox;
		}

		@Transactional
		public void place(String key, String payload) {
			this.jdbc.update("INSERT INTO bench_order (order_key) VALUES (?)", key);
			// The record key is the order id: namastack orders and partitions by it, and it becomes the
			// Kafka key.
			this.outbox.schedule(new OrderPlaced(key, payload), key);
		}

	}

	/**
	 * A generic handler as {@code KafkaOutboxHandler} is: one record per call, key = the record key, no
	 * headers, and the send waited for, so a failure leaves the record to namastack's retries.
	 */
	@Component
	public static class KafkaHandler implements OutboxHandler {

		private final KafkaOperations<Object, Object> kafka;

		private final String topic;

		KafkaHandler(KafkaOperations<Object, Object> kafka, @Value("${bench.topic}") String topic) {
			this.kafka = kafka;
			this.topic = topic;
		}

		@Override
		public void handle(Object payload, OutboxRecordMetadata metadata) {
			ProducerRecord<Object, Object> record = new ProducerRecord<>(this.topic, null, metadata.getKey(), payload,
					List.of());
			try {
				this.kafka.send(record).get();
			}
			catch (ExecutionException ex) {
				throw (ex.getCause() instanceof RuntimeException cause) ? cause
						: new IllegalStateException(ex.getCause());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

	public record OrderPlaced(String key, String payload) {
	}

}
