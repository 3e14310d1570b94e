package dev.outboxstarter.it;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with its own Flyway migrations, starting at {@code V1__} like the outbox's, and
 * {@code spring.jpa.hibernate.ddl-auto=validate}: both histories are kept apart, the application's
 * migrations run first, JPA validates after both, and restarts change nothing.
 */
class ApplicationFlywayMigrationsIntegrationTests {

	private static final String SCHEMA = "outbox_flyway_it";

	@Test
	void applicationWithItsOwnV1MigrationStartsNextToTheOutboxMigrations() throws Exception {
		recreateSchema();

		try (ConfigurableApplicationContext context = start()) {
			context.getBean(OrderService.class).place("flyway", new OrderPlaced("flyway", 1));
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			assertThat(jdbc.queryForList("SELECT version FROM flyway_schema_history WHERE success", String.class))
				.containsExactly("1");
			assertThat(jdbc.queryForList("SELECT version FROM outbox_event_schema_history WHERE success ORDER BY installed_rank",
					String.class))
				.containsExactly("0", "1", "2", "3", "4", "5", "6", "7");
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM outbox_event", Integer.class)).isEqualTo(1);
		}
		try (ConfigurableApplicationContext restarted = start()) {
			JdbcTemplate jdbc = restarted.getBean(JdbcTemplate.class);
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM outbox_event_schema_history", Integer.class))
				.isEqualTo(8);
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM flyway_schema_history", Integer.class)).isEqualTo(1);
		}
	}

	private static void recreateSchema() throws Exception {
		try (Connection connection = TestDatabase.POSTGRESQL.dataSource().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
			statement.execute("CREATE SCHEMA " + SCHEMA);
		}
	}

	private static ConfigurableApplicationContext start() {
		String url = TestDatabase.POSTGRESQL.url() + (TestDatabase.POSTGRESQL.url().contains("?") ? "&" : "?")
				+ "currentSchema=" + SCHEMA;
		return new SpringApplicationBuilder(OrdersTestApplication.class).web(WebApplicationType.NONE)
			.run(List
				.of("spring.datasource.url=" + url, "spring.datasource.username=" + TestDatabase.POSTGRESQL.username(),
						"spring.datasource.password=" + TestDatabase.POSTGRESQL.password(), "spring.flyway.enabled=true",
						"spring.flyway.locations=classpath:db/it-app-migration", "spring.jpa.hibernate.ddl-auto=validate",
						"test.topic=it-flyway", "spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers())
				.stream()
				.map((property) -> "--" + property)
				.toArray(String[]::new));
	}

}
