package dev.outboxstarter.benchmarks.contenders.dbonly;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The floor: the business insert and nothing else, in the same kind of transaction.
 */
@SpringBootApplication(excludeName = "dev.outboxstarter.core.OutboxAutoConfiguration")
public class DatabaseOnlyApplication {

	@Service
	public static class Orders {

		private final JdbcTemplate jdbc;

		Orders(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Transactional
		public void place(String key) {
			this.jdbc.update("INSERT INTO bench_order (order_key) VALUES (?)", key);
		}

	}

}
