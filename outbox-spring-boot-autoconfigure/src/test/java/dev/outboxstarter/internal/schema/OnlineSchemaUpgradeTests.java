package dev.outboxstarter.internal.schema;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An upgrade of a live table: the outbox holds a great many published rows, business transactions keep
 * writing to it on other threads, and an instance of the new version starts and migrates it. The
 * migrations that change its indexes build them while those transactions keep committing, with Flyway
 * and with the scripts, on PostgreSQL and MariaDB. Whether a commit completes while an index is being
 * built is the verdict; how long the longest commit took is printed as a figure.
 */
public class OnlineSchemaUpgradeTests {

	private static final String TABLE = "outbox_upgrade_it";

	/** Enough rows that building an index over them is seen by a monitor polling every few milliseconds. */
	private static final int POSTGRESQL_PUBLISHED_ROWS = 500_000;

	private static final int MARIADB_PUBLISHED_ROWS = 200_000;

	private static final int WRITERS = 3;

	private static final Duration MIGRATION_TIMEOUT = Duration.ofMinutes(3);

	private static final Duration POLL = Duration.ofMillis(5);

	private static DataSource postgresql;

	@BeforeAll
	static void fillAPostgreSqlTableAtVersion4WithPublishedRows() {
		postgresql = OutboxTestTable.dataSource(TestDatabase.POSTGRESQL);
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		runShippedScriptsUpTo(postgresql, 4);
		// Ordered ids, so that filling the primary key appends instead of splitting pages at random.
		new JdbcTemplate(postgresql).update("INSERT INTO " + TABLE + " (id, aggregate_type, aggregate_id, event_type, "
				+ "transport, destination, message_key, payload, status, attempts, available_at, created_at, "
				+ "published_at) SELECT ('00000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'Order', "
				+ "'o' || i, 'OrderPlaced', 'kafka', 'orders', 'o' || i, '{}', 'PUBLISHED', 1, now(), now(), now() "
				+ "FROM generate_series(1, " + POSTGRESQL_PUBLISHED_ROWS + ") i");
		new JdbcTemplate(postgresql).execute("ANALYZE " + TABLE);
	}

	@AfterAll
	static void dropTheTable() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestDatabase.MARIADB.dropTable(TABLE);
	}

	@ParameterizedTest
	@EnumSource(Mode.class)
	void upgradeFromVersion4OnPostgreSqlBuildsThePendingIndexWhileBusinessCommitsKeepCompleting(Mode mode) {
		resetPostgreSqlToVersion4();

		Upgrade upgrade = new Upgrade(TestDatabase.POSTGRESQL, "SELECT COUNT(*) FROM pg_stat_progress_create_index "
				+ "WHERE relid = '" + TABLE + "'::regclass");
		upgrade.run(mode.initializer(postgresql), "PostgreSQL, " + mode);

		upgrade.assertCommitsCompletedWhileAnIndexWasBuilt();
		JdbcTemplate jdbc = new JdbcTemplate(postgresql);
		assertThat(jdbc.queryForList("SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() "
				+ "AND indexname = '" + TABLE + "_pending_idx'", String.class))
			.singleElement()
			.asString()
			.contains("WHERE (((status)::text = 'PENDING'::text) AND (available_at IS NOT NULL))");
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM pg_index WHERE indrelid = '" + TABLE
				+ "'::regclass AND NOT indisvalid", Integer.class))
			.as("invalid indexes left behind")
			.isZero();
		assertThat(new AppliedVersions(new NamedParameterJdbcTemplate(postgresql),
				SchemaStatements.load(DatabaseVendor.POSTGRESQL, TABLE), TABLE, scripts(postgresql))
			.read()).contains(5);
	}

	@Test
	void upgradeFromVersion1OnMariaDbBuildsTheCleanupIndexWhileBusinessCommitsKeepCompleting() {
		DataSource mariadb = OutboxTestTable.dataSource(TestDatabase.MARIADB);
		TestDatabase.MARIADB.dropTable(TABLE);
		runShippedScriptsUpTo(mariadb, 1);
		new JdbcTemplate(mariadb).update("INSERT INTO " + TABLE + " (id, aggregate_type, aggregate_id, event_type, "
				+ "transport, destination, message_key, payload, status, attempts, available_at, created_at, "
				+ "published_at) SELECT CONCAT('00000000-0000-7000-8000-', LPAD(HEX(seq), 12, '0')), 'Order', "
				+ "CONCAT('o', seq), 'OrderPlaced', 'kafka', 'orders', CONCAT('o', seq), '{}', 'PUBLISHED', 1, "
				+ "UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM seq_1_to_" + MARIADB_PUBLISHED_ROWS);

		Upgrade upgrade = new Upgrade(TestDatabase.MARIADB, "SELECT COUNT(*) FROM information_schema.processlist "
				+ "WHERE id <> CONNECTION_ID() AND info LIKE 'CREATE INDEX " + TABLE + "%'");
		upgrade.run(Mode.SCRIPTS.initializer(mariadb), "MariaDB, " + Mode.SCRIPTS);

		upgrade.assertCommitsCompletedWhileAnIndexWasBuilt();
		assertThat(new JdbcTemplate(mariadb).queryForObject("SELECT COUNT(*) FROM information_schema.statistics "
				+ "WHERE table_schema = DATABASE() AND table_name = '" + TABLE + "' AND index_name = '" + TABLE
				+ "_cleanup_idx'", Integer.class)).isPositive();
	}

	/**
	 * Puts the filled table back to version 4 as the scripts set it up, with their record: both modes
	 * start from there (Flyway takes such a table over at the version it has).
	 */
	private static void resetPostgreSqlToVersion4() {
		JdbcTemplate jdbc = new JdbcTemplate(postgresql);
		jdbc.execute("DROP TABLE IF EXISTS " + TABLE + "_schema_history");
		jdbc.execute("DROP TABLE IF EXISTS " + TABLE + "_script_history");
		jdbc.update("DELETE FROM " + TABLE + " WHERE status <> 'PUBLISHED'");
		jdbc.execute("ALTER TABLE " + TABLE + " DROP COLUMN IF EXISTS deliver_at, DROP COLUMN IF EXISTS delay_holds_key, "
				+ "DROP COLUMN IF EXISTS content_type");
		jdbc.execute("DROP INDEX IF EXISTS " + TABLE + "_pending_idx");
		MigrationScript first = scripts(postgresql).get(0);
		String pendingIndex = first.sql().lines()
			.filter((line) -> line.startsWith("CREATE INDEX " + TABLE + "_pending_idx"))
			.findFirst()
			.orElseThrow();
		jdbc.execute(pendingIndex);
		AppliedVersions record = new AppliedVersions(new NamedParameterJdbcTemplate(postgresql),
				SchemaStatements.load(DatabaseVendor.POSTGRESQL, TABLE), TABLE, scripts(postgresql));
		scripts(postgresql).stream().filter((script) -> script.version() <= 4).forEach(record::record);
	}

	private static void runShippedScriptsUpTo(DataSource dataSource, int version) {
		ResourceDatabasePopulator populator = new ResourceDatabasePopulator();
		scripts(dataSource).stream()
			.filter((script) -> script.version() <= version)
			.forEach((script) -> populator.addScript(new ByteArrayResource(script.sql().getBytes(StandardCharsets.UTF_8))));
		populator.execute(dataSource);
	}

	private static List<MigrationScript> scripts(DataSource dataSource) {
		return MigrationScript.at(DatabaseVendor.of(dataSource).migrationLocation(), TABLE,
				OnlineSchemaUpgradeTests.class.getClassLoader());
	}

	enum Mode {

		FLYWAY, SCRIPTS;

		OutboxSchemaInitializer initializer(DataSource dataSource) {
			DatabaseVendor vendor = DatabaseVendor.of(dataSource);
			if (this == FLYWAY) {
				return new FlywayOutboxSchemaInitializer(dataSource, vendor.migrationLocation(), TABLE);
			}
			return new ScriptOutboxSchemaInitializer(dataSource, vendor, vendor.migrationLocation(), TABLE);
		}

	}

	/**
	 * One upgrade under write load: writers commit one outbox row per transaction on threads of their own
	 * while the initializer migrates the table, and a monitor notes when an index of the table is being
	 * built.
	 */
	private static final class Upgrade {

		private final TestDatabase database;

		private final String buildsInProgress;

		/** Each commit as {started, finished}, in nanoseconds. */
		private final Queue<long[]> commits = new ConcurrentLinkedQueue<>();

		private final AtomicLong firstSeenBuilding = new AtomicLong(Long.MAX_VALUE);

		private final AtomicLong lastSeenBuilding = new AtomicLong(Long.MIN_VALUE);

		private long migrationStarted;

		private long migrationFinished;

		Upgrade(TestDatabase database, String buildsInProgress) {
			this.database = database;
			this.buildsInProgress = buildsInProgress;
		}

		void run(OutboxSchemaInitializer initializer, String name) {
			AtomicBoolean writing = new AtomicBoolean(true);
			List<CompletableFuture<Void>> writers = new ArrayList<>();
			ExecutorService threads = Executors.newFixedThreadPool(WRITERS + 1);
			try (HikariDataSource pool = pool(WRITERS); HikariDataSource monitorPool = pool(1)) {
				// The writers are instances of the previous release: they write the columns the table had.
				DatabaseVendor vendor = DatabaseVendor.of(pool);
				JdbcTemplate previousRelease = new JdbcTemplate(pool);
				String now = (vendor == DatabaseVendor.POSTGRESQL) ? "clock_timestamp()" : "UTC_TIMESTAMP(6)";
				String insert = "INSERT INTO " + TABLE + " (id, aggregate_type, aggregate_id, event_type, transport, "
						+ "destination, message_key, payload, available_at, created_at) VALUES (?, 'Order', 'writer', "
						+ "'OrderPlaced', 'kafka', 'orders', 'writer', '{}', " + now + ", " + now + ")";
				TransactionTemplate transactions = OutboxTestTable.transactions(pool);
				AtomicLong committed = new AtomicLong();
				for (int i = 0; i < WRITERS; i++) {
					writers.add(CompletableFuture.runAsync(() -> {
						while (writing.get()) {
							long started = System.nanoTime();
							transactions.executeWithoutResult((status) -> previousRelease.update(insert,
									vendor.idParameter(UUID.randomUUID())));
							this.commits.add(new long[] { started, System.nanoTime() });
							committed.incrementAndGet();
						}
					}, threads));
				}
				try {
					await().atMost(Duration.ofSeconds(30)).pollInterval(POLL).until(() -> committed.get() >= 10 * WRITERS);
					JdbcTemplate monitor = new JdbcTemplate(monitorPool);
					this.migrationStarted = System.nanoTime();
					CompletableFuture<Void> migration = CompletableFuture.runAsync(initializer::afterPropertiesSet,
							threads);
					await().atMost(MIGRATION_TIMEOUT).pollInterval(POLL).pollInSameThread().until(() -> {
						long sampled = System.nanoTime();
						Integer building = monitor.queryForObject(this.buildsInProgress, Integer.class);
						if (building != null && building > 0) {
							this.firstSeenBuilding.accumulateAndGet(sampled, Math::min);
							this.lastSeenBuilding.accumulateAndGet(System.nanoTime(), Math::max);
						}
						return migration.isDone();
					});
					this.migrationFinished = System.nanoTime();
					migration.join();
				}
				finally {
					writing.set(false);
					writers.forEach(CompletableFuture::join);
				}
			}
			finally {
				threads.shutdownNow();
			}
			long longest = this.commits.stream()
				.filter((commit) -> commit[1] >= this.migrationStarted && commit[0] <= this.migrationFinished)
				.mapToLong((commit) -> commit[1] - commit[0])
				.max()
				.orElse(0);
			System.out.printf("[%s] upgrade took %d ms, index build seen for %d ms; %d commits completed during the "
					+ "upgrade, %d of them started and finished while an index was being built; longest commit "
					+ "during the upgrade %d ms%n", name, millis(this.migrationFinished - this.migrationStarted),
					millis(this.lastSeenBuilding.get() - this.firstSeenBuilding.get()),
					this.commits.stream()
						.filter((commit) -> commit[1] >= this.migrationStarted && commit[1] <= this.migrationFinished)
						.count(),
					commitsWhileBuilding(), millis(longest));
		}

		void assertCommitsCompletedWhileAnIndexWasBuilt() {
			assertThat(this.lastSeenBuilding.get()).as("the index build was seen by the monitor")
				.isGreaterThan(this.firstSeenBuilding.get());
			assertThat(commitsWhileBuilding()).as("commits that started and finished while an index was being built")
				.isPositive();
		}

		private long commitsWhileBuilding() {
			return this.commits.stream()
				.filter((commit) -> commit[0] >= this.firstSeenBuilding.get()
						&& commit[1] <= this.lastSeenBuilding.get())
				.count();
		}

		private HikariDataSource pool(int size) {
			HikariDataSource pool = new HikariDataSource();
			pool.setJdbcUrl(this.database.url());
			pool.setUsername(this.database.username());
			pool.setPassword(this.database.password());
			pool.setMaximumPoolSize(size);
			return pool;
		}

		private static long millis(long nanos) {
			return Duration.ofNanos(nanos).toMillis();
		}

	}

}
