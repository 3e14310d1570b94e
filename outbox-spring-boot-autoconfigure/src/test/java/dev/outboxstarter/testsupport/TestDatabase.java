package dev.outboxstarter.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The databases the tests run against: real PostgreSQL and MariaDB, and embedded H2. With Docker
 * available they run in Testcontainers; otherwise the local services are used (PostgreSQL on
 * 127.0.0.1:5432 and MariaDB on 127.0.0.1:3306, database {@code test}). The environment variable
 * {@code OUTBOX_TEST_SERVICES} forces the choice: {@code local} or {@code testcontainers}; and
 * {@code OUTBOX_TEST_DATABASE} names another local database (which must exist), so that two checkouts
 * can run their tests at once without sharing tables.
 */
public enum TestDatabase {

	POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/" + localDatabase(), "postgres", "",
			() -> new PostgreSQLContainer("postgres:16-alpine")),

	MARIADB("jdbc:mariadb://127.0.0.1:3306/" + localDatabase(), "root", "", () -> new MariaDBContainer("mariadb:11")),

	H2("jdbc:h2:mem:outbox;DB_CLOSE_DELAY=-1", "sa", "", null);

	private static final boolean useTestcontainers = decideTestcontainers();

	private final String localUrl;

	private final String localUsername;

	private final String localPassword;

	private final Supplier<JdbcDatabaseContainer<?>> container;

	private JdbcDatabaseContainer<?> started;

	TestDatabase(String localUrl, String localUsername, String localPassword,
			Supplier<JdbcDatabaseContainer<?>> container) {
		this.localUrl = localUrl;
		this.localUsername = localUsername;
		this.localPassword = localPassword;
		this.container = container;
	}

	public String url() {
		return (container() != null) ? container().getJdbcUrl() : this.localUrl;
	}

	public String username() {
		return (container() != null) ? container().getUsername() : this.localUsername;
	}

	public String password() {
		return (container() != null) ? container().getPassword() : this.localPassword;
	}

	/**
	 * Spring Boot properties that point an application at this database.
	 * @return {@code key=value} pairs
	 */
	public String[] properties() {
		return new String[] { "spring.datasource.url=" + url(), "spring.datasource.username=" + username(),
				"spring.datasource.password=" + password() };
	}

	/**
	 * Points the application of a {@code @SpringBootTest} at this database.
	 * @param registry the test's dynamic properties
	 */
	public void register(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", this::url);
		registry.add("spring.datasource.username", this::username);
		registry.add("spring.datasource.password", this::password);
	}

	/**
	 * A plain data source (a new connection each time) for test set-up and assertions.
	 * @return the data source
	 */
	public DataSource dataSource() {
		return new DriverManagerDataSource(url(), username(), password());
	}

	/**
	 * Drops a table if it exists, and its Flyway and scripts history tables.
	 * @param table the table name
	 */
	public void dropTable(String table) {
		try (Connection connection = DriverManager.getConnection(url(), username(), password());
				Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + table);
			statement.execute("DROP TABLE IF EXISTS " + table + "_schema_history");
			statement.execute("DROP TABLE IF EXISTS " + table + "_script_history");
			if (this == H2) {
				// Flyway creates its history table on H2 with a quoted lower-case name.
				statement.execute("DROP TABLE IF EXISTS \"" + table + "_schema_history\"");
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private synchronized JdbcDatabaseContainer<?> container() {
		if (!useTestcontainers || this.container == null) {
			return null;
		}
		if (this.started == null) {
			JdbcDatabaseContainer<?> candidate = this.container.get();
			candidate.start();
			this.started = candidate;
		}
		return this.started;
	}

	private static String localDatabase() {
		String name = System.getenv("OUTBOX_TEST_DATABASE");
		return (name != null && !name.isBlank()) ? name : "test";
	}

	private static boolean decideTestcontainers() {
		String forced = System.getenv("OUTBOX_TEST_SERVICES");
		if (forced != null && !forced.isBlank()) {
			return forced.toLowerCase(Locale.ROOT).equals("testcontainers");
		}
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

}
