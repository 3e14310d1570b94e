package dev.outboxstarter.benchmarks.contenders.starter;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The starter as an application uses it: a JDBC business insert and {@link Outbox#publish} in one
 * transaction.
 */
@SpringBootApplication
public class StarterApplication {

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
			this.outbox.publish(new OrderPlaced(key, payload));
		}

	}

	@OutboxEvent(destination = "${bench.topic}", key = "key")
	public record OrderPlaced(String key, String payload) {
	}

}
