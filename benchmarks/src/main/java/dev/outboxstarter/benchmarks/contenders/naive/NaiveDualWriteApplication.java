package dev.outboxstarter.benchmarks.contenders.naive;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The naive dual write: save, commit, then {@code KafkaTemplate.send} (not waited for). Fast, and
 * loses the event whenever the send fails after the commit.
 */
@SpringBootApplication(excludeName = "dev.outboxstarter.core.OutboxAutoConfiguration")
public class NaiveDualWriteApplication {

	@Service
	public static class Orders {

		private static final Log logger = LogFactory.getLog(Orders.class);

		private final JdbcTemplate jdbc;

		private final TransactionTemplate transactions;

		private final KafkaTemplate<Object, Object> kafka;

		private final String topic;

		Orders(JdbcTemplate jdbc, TransactionTemplate transactions, KafkaTemplate<Object, Object> kafka,
				@Value("${bench.topic}") String topic) {
			this.jdbc = jdbc;
			this.transactions = transactions;
			this.kafka = kafka;
			this.topic = topic;
		}

		public void place(String key, String payload) {
			this.transactions.executeWithoutResult(
					(status) -> this.jdbc.update("INSERT INTO bench_order (order_key) VALUES (?)", key));
			try {
				this.kafka.send(this.topic, key, payload);
			}
			catch (RuntimeException ex) {
				// What the naive dual write does in practice: the order is committed, the event is gone.
				logger.debug("Event of order " + key + " lost: " + ex.getMessage());
			}
		}

	}

}
