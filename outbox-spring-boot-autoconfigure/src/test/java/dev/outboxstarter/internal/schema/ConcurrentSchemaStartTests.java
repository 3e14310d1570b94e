package dev.outboxstarter.internal.schema;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Function;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Several instances of an application start at the same moment on an empty schema (the first rollout
 * of a deployment with several replicas): each with its own connection pool, on PostgreSQL, MariaDB
 * and H2, with the scripts and with Flyway. Every one comes up, and the table is created once.
 */
public class ConcurrentSchemaStartTests {

	private static final String TABLE = "outbox_concurrent_it";

	private static final int INSTANCES = 4;

	private static final int ROUNDS = 10;

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void instancesStartingAtOnceWithTheScriptsAllComeUpAndTheTableIsCreatedOnce(TestDatabase database) {
		for (int round = 0; round < ROUNDS; round++) {
			startAtOnce(database, (dataSource) -> {
				DatabaseVendor vendor = DatabaseVendor.of(dataSource);
				return new ScriptOutboxSchemaInitializer(dataSource, vendor, vendor.migrationLocation(), TABLE);
			});

			JdbcTemplate jdbc = new JdbcTemplate(database.dataSource());
			assertThat(jdbc.queryForList("SELECT version FROM " + TABLE + "_script_history ORDER BY version",
					Integer.class))
				.as("round %d: every version recorded once", round)
				.isEqualTo(shippedVersions(database));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE, Integer.class)).isZero();
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void instancesStartingAtOnceWithFlywayAllComeUpAndTheTableIsCreatedOnce(TestDatabase database) {
		for (int round = 0; round < ROUNDS; round++) {
			startAtOnce(database, (dataSource) -> new FlywayOutboxSchemaInitializer(dataSource,
					DatabaseVendor.of(dataSource).migrationLocation(), TABLE));

			JdbcTemplate jdbc = new JdbcTemplate(database.dataSource());
			String history = (database == TestDatabase.MARIADB) ? "`" + TABLE + "_schema_history`"
					: "\"" + TABLE + "_schema_history\"";
			String version = (database == TestDatabase.MARIADB) ? "`version`" : "\"version\"";
			String type = (database == TestDatabase.MARIADB) ? "`type`" : "\"type\"";
			assertThat(jdbc.queryForList("SELECT " + version + " FROM " + history + " WHERE " + type + " = 'SQL'",
					String.class)
				.stream()
				.map(Integer::valueOf)
				.sorted()
				.toList()).as("round %d: every version applied once", round).isEqualTo(shippedVersions(database));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE, Integer.class)).isZero();
		}
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void instanceThatCannotTakeTheSchemaLockInTimeFailsNamingTheTable(TestDatabase database) throws Exception {
		DataSource dataSource = database.dataSource();
		SchemaStatements statements = SchemaStatements.load(DatabaseVendor.of(dataSource), TABLE);
		SchemaLock lock = new SchemaLock(statements, TABLE, Duration.ofSeconds(1));
		try (Connection holder = dataSource.getConnection(); Connection waiter = dataSource.getConnection()) {
			lock.holding(holder, () -> {
				CompletableFuture<Void> other = CompletableFuture.runAsync(() -> lock.holding(waiter, () -> {
				}));
				assertThatIllegalStateException().isThrownBy(() -> unwrap(other))
					.withMessageContaining("Waited 1 s for the schema lock of the table '" + TABLE + "'")
					.withMessageContaining("another instance holds it");
			});
			// Released: the next instance takes it at once.
			lock.holding(waiter, () -> {
			});
		}
	}

	private static void unwrap(CompletableFuture<Void> future) {
		try {
			future.join();
		}
		catch (CompletionException ex) {
			throw (RuntimeException) ex.getCause();
		}
	}

	private static List<Integer> shippedVersions(TestDatabase database) {
		DatabaseVendor vendor = DatabaseVendor.of(database.dataSource());
		return MigrationScript.at(vendor.migrationLocation(), TABLE, ConcurrentSchemaStartTests.class.getClassLoader())
			.stream()
			.map(MigrationScript::version)
			.toList();
	}

	/** Drops the table, then starts the instances on it at the same moment, each with a pool of its own. */
	private static void startAtOnce(TestDatabase database, Function<DataSource, OutboxSchemaInitializer> instance) {
		database.dropTable(TABLE);
		List<HikariDataSource> pools = new ArrayList<>();
		try {
			CyclicBarrier barrier = new CyclicBarrier(INSTANCES);
			List<CompletableFuture<Void>> starts = new ArrayList<>();
			for (int i = 0; i < INSTANCES; i++) {
				HikariDataSource pool = new HikariDataSource();
				pool.setJdbcUrl(database.url());
				pool.setUsername(database.username());
				pool.setPassword(database.password());
				pool.setMaximumPoolSize(4);
				pools.add(pool);
				OutboxSchemaInitializer initializer = instance.apply(pool);
				starts.add(CompletableFuture.runAsync(() -> {
					try {
						barrier.await();
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
					initializer.afterPropertiesSet();
				}));
			}
			List<Throwable> failures = new ArrayList<>();
			for (CompletableFuture<Void> start : starts) {
				try {
					start.join();
				}
				catch (CompletionException ex) {
					failures.add(ex.getCause());
				}
			}
			assertThat(failures).as("instances that failed to start").isEmpty();
		}
		finally {
			pools.forEach(HikariDataSource::close);
		}
	}

}
