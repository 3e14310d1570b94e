package dev.outboxstarter.internal.schema;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.internal.store.OutboxStatements.PublishedRows;
import dev.outboxstarter.internal.store.OutboxStatements;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.OutboxStore.Relaying;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.jdbc.support.JdbcUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The three schema modes on real PostgreSQL, MariaDB and H2: Flyway migrations with their own history
 * table, plain scripts, and the check for a table the application manages.
 */
public class OutboxSchemaTests {

	private static final String TABLE = "outbox_schema_it";

	private static final String SCRIPTS_TABLE = "outbox_schema_scripts_it";

	private static final List<String> COLUMNS = List.of("id", "seq", "aggregate_type", "aggregate_id", "event_type",
			"transport", "destination", "message_key", "payload", "headers", "status", "attempts", "available_at",
			"last_error", "created_at", "published_at", "dead_at", "deliver_at", "delay_holds_key", "content_type");

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void flywayCreatesTheTableAndRecordsItInItsOwnHistoryTable(TestDatabase database) {
		database.dropTable(TABLE);
		Schema schema = new Schema(database, TABLE);
		assertThat(schema.tableExists(TABLE)).isFalse();

		new FlywayOutboxSchemaInitializer(schema.dataSource, schema.vendor.migrationLocation(), TABLE).afterPropertiesSet();

		assertThat(schema.columns(TABLE).keySet()).containsExactlyElementsOf(COLUMNS);
		assertThat(schema.tableExists(TABLE)).isTrue();
		assertThat(schema.tableExists(TABLE + "_schema_history")).isTrue();
		assertThat(schema.migrations()).contains("1:true");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void flywayRunTwiceIsANoOp(TestDatabase database) {
		database.dropTable(TABLE);
		Schema schema = new Schema(database, TABLE);
		new FlywayOutboxSchemaInitializer(schema.dataSource, schema.vendor.migrationLocation(), TABLE).afterPropertiesSet();
		schema.store.insert(List.of(OutboxTestTable.event("kept")), Duration.ZERO);
		List<String> migrations = schema.migrations();

		new FlywayOutboxSchemaInitializer(schema.dataSource, schema.vendor.migrationLocation(), TABLE).afterPropertiesSet();

		assertThat(schema.migrations()).isEqualTo(migrations);
		assertThat(schema.count(TABLE)).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void scriptsCreateTheSameTableWhenItIsMissing(TestDatabase database) {
		database.dropTable(TABLE);
		database.dropTable(SCRIPTS_TABLE);
		Schema flyway = new Schema(database, TABLE);
		new FlywayOutboxSchemaInitializer(flyway.dataSource, flyway.vendor.migrationLocation(), TABLE).afterPropertiesSet();
		Schema scripts = new Schema(database, SCRIPTS_TABLE);

		new ScriptOutboxSchemaInitializer(scripts.dataSource, scripts.vendor, scripts.vendor.migrationLocation(), SCRIPTS_TABLE)
			.afterPropertiesSet();

		assertThat(scripts.tableExists(SCRIPTS_TABLE)).isTrue();
		assertThat(scripts.columns(SCRIPTS_TABLE)).isEqualTo(flyway.columns(TABLE));
		assertThat(flyway.indexes(TABLE)).containsKeys("primary", "*_pending_idx", "*_key_idx");
		assertThat(scripts.indexes(SCRIPTS_TABLE)).isEqualTo(flyway.indexes(TABLE));
		assertThat(scripts.tableExists(SCRIPTS_TABLE + "_schema_history")).isFalse();
		CapturedEvent event = OutboxTestTable.event("k");
		scripts.store.insert(List.of(event), Duration.ZERO);
		List<ClaimedEvent> claimed = OutboxTestTable.transactions(scripts.dataSource)
			.execute((status) -> scripts.store.claimDue(10, 0).events());
		assertThat(claimed).singleElement()
			.satisfies((row) -> assertThat(row.message().id()).isEqualTo(event.id()));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void scriptsLeaveAnExistingTableAlone(TestDatabase database) {
		database.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(database, SCRIPTS_TABLE);
		new ScriptOutboxSchemaInitializer(schema.dataSource, schema.vendor, schema.vendor.migrationLocation(), SCRIPTS_TABLE)
			.afterPropertiesSet();
		schema.store.insert(List.of(OutboxTestTable.event("kept")), Duration.ZERO);
		schema.jdbc.execute("ALTER TABLE " + SCRIPTS_TABLE + " ADD tenant VARCHAR(32)");

		new ScriptOutboxSchemaInitializer(schema.dataSource, schema.vendor, schema.vendor.migrationLocation(), SCRIPTS_TABLE)
			.afterPropertiesSet();

		assertThat(schema.count(SCRIPTS_TABLE)).isEqualTo(1);
		assertThat(schema.columns(SCRIPTS_TABLE)).containsKey("tenant");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void existingTableCheckFailsNamingTheSchemaModeWhenTheTableIsMissing(TestDatabase database) {
		database.dropTable(TABLE);
		Schema schema = new Schema(database, TABLE);
		ExistingOutboxTableCheck check = new ExistingOutboxTableCheck(schema.dataSource, schema.vendor,
				schema.vendor.migrationLocation(), "outbox", TABLE);

		assertThatIllegalStateException().isThrownBy(check::afterPropertiesSet)
			.withMessageContaining("'" + TABLE + "'")
			.withMessageContaining("outbox.schema.mode")
			.withMessageContaining("db/outbox/migration/" + schema.vendor.folder());

		new FlywayOutboxSchemaInitializer(schema.dataSource, schema.vendor.migrationLocation(), TABLE).afterPropertiesSet();
		check.afterPropertiesSet();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void scriptsRecordEveryVersionTheyApplyToANewTable(TestDatabase database) {
		database.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(database, SCRIPTS_TABLE);

		schema.scripts().afterPropertiesSet();
		schema.scripts().afterPropertiesSet();

		assertThat(schema.scriptRecord()).isEqualTo(schema.shippedVersions());
		assertThat(schema.tableExists(SCRIPTS_TABLE + "_schema_history")).isFalse();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void scriptsUpgradeATableTheyCreatedAtTheFirstVersionBeforeTheyKeptARecord(TestDatabase database) {
		database.dropTable(TABLE);
		database.dropTable(SCRIPTS_TABLE);
		Schema flyway = new Schema(database, TABLE);
		flyway.flyway().afterPropertiesSet();
		Schema schema = new Schema(database, SCRIPTS_TABLE);
		schema.runShippedScriptsUpTo(1);
		schema.insertAtAnyVersion("kept", "dead");
		schema.jdbc.update("UPDATE " + SCRIPTS_TABLE
				+ " SET status = 'DEAD', available_at = available_at - INTERVAL '1' HOUR WHERE message_key = 'dead'");

		schema.scripts().afterPropertiesSet();

		assertThat(schema.columns(SCRIPTS_TABLE)).isEqualTo(flyway.columns(TABLE));
		assertThat(schema.indexes(SCRIPTS_TABLE)).isEqualTo(flyway.indexes(TABLE));
		assertThat(schema.scriptRecord()).isEqualTo(schema.shippedVersions());
		assertThat(schema.count(SCRIPTS_TABLE)).isEqualTo(2);
		assertThat(schema.jdbc.queryForObject("SELECT COUNT(*) FROM " + SCRIPTS_TABLE
				+ " WHERE status = 'DEAD' AND dead_at = available_at", Integer.class))
			.as("a row DEAD before the upgrade has a dead_at").isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void scriptsUpgradeATableTheyCreatedWithEveryVersionOfTheTimeBeforeTheyKeptARecord(TestDatabase database) {
		database.dropTable(TABLE);
		database.dropTable(SCRIPTS_TABLE);
		Schema flyway = new Schema(database, TABLE);
		flyway.flyway().afterPropertiesSet();
		Schema schema = new Schema(database, SCRIPTS_TABLE);
		schema.runShippedScriptsUpTo(AppliedVersions.FIRST_RECORDED_VERSION - 1);

		schema.scripts().afterPropertiesSet();

		assertThat(schema.columns(SCRIPTS_TABLE)).isEqualTo(flyway.columns(TABLE));
		assertThat(schema.indexes(SCRIPTS_TABLE)).isEqualTo(flyway.indexes(TABLE));
		assertThat(schema.scriptRecord()).isEqualTo(schema.shippedVersions());
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void flywayTakesOverATableTheScriptsSetUpFromTheVersionItHas(TestDatabase database) {
		database.dropTable(TABLE);
		database.dropTable(SCRIPTS_TABLE);
		Schema reference = new Schema(database, TABLE);
		reference.flyway().afterPropertiesSet();
		Schema schema = new Schema(database, SCRIPTS_TABLE);
		schema.runShippedScriptsUpTo(1);
		schema.insertAtAnyVersion("kept");

		schema.flyway().afterPropertiesSet();

		List<String> expected = new ArrayList<>(List.of("1:BASELINE"));
		schema.shippedVersions()
			.stream()
			.filter((version) -> version > 1)
			.forEach((version) -> expected.add(version + ":SQL"));
		assertThat(schema.flywayHistory()).isEqualTo(expected);
		assertThat(schema.columns(SCRIPTS_TABLE)).isEqualTo(reference.columns(TABLE));
		assertThat(schema.indexes(SCRIPTS_TABLE)).isEqualTo(reference.indexes(TABLE));
		assertThat(schema.count(SCRIPTS_TABLE)).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void scriptsLeaveATableFlywayMigratedAsItIs(TestDatabase database) {
		database.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(database, SCRIPTS_TABLE);
		schema.flyway().afterPropertiesSet();

		schema.scripts().afterPropertiesSet();

		assertThat(schema.tableExists(SCRIPTS_TABLE + "_script_history")).isFalse();
	}

	@Test
	void flywayStartsOnAPostgreSqlTableThatHadVersion5InItsEarlierText() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		Schema schema = new Schema(TestDatabase.POSTGRESQL, TABLE);
		// As the previous release left it: versions 1 to 4 as shipped, 5 as it was then, which rebuilt the
		// pending index in a transaction.
		schema.flywayOf(schema.vendor.migrationLocation()).target("4").load().migrate();
		schema.flywayOf("classpath:db/outbox/previous-migration/postgresql")
			.ignoreMigrationPatterns("*:missing")
			.load()
			.migrate();
		schema.insertAtAnyVersion("kept");

		schema.flyway().afterPropertiesSet();

		assertThat(schema.migrations()).containsExactly("0:true", "1:true", "2:true", "3:true", "4:true", "5:true", "6:true",
				"7:true");
		assertThat(schema.flywayOf(schema.vendor.migrationLocation()).load().info().applied())
			.allSatisfy((migration) -> assertThat(migration.isChecksumMatching()).isTrue());
		assertThat(schema.count(TABLE)).isEqualTo(1);
		schema.scripts().afterPropertiesSet();
		assertThat(schema.tableExists(TABLE + "_script_history")).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "flyway", "scripts" })
	void anUpgradeOnPostgreSqlCompletesAnIndexBuildThatACrashLeftInvalid(String mode) {
		TestDatabase.POSTGRESQL.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(TestDatabase.POSTGRESQL, SCRIPTS_TABLE);
		schema.setUpWithTheScriptsUpTo(4);
		schema.insertAtAnyVersion("a", "b");
		// A build of version 5's new index that stopped halfway, as a crash or a lock timeout leaves it.
		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> schema.jdbc.execute(
				"CREATE UNIQUE INDEX CONCURRENTLY " + SCRIPTS_TABLE + "_pending_due_idx ON " + SCRIPTS_TABLE + " (status)"));
		assertThat(schema.invalidIndexes()).containsExactly(SCRIPTS_TABLE + "_pending_due_idx");

		(mode.equals("flyway") ? schema.flyway() : schema.scripts()).afterPropertiesSet();

		assertThat(schema.invalidIndexes()).isEmpty();
		assertThat(schema.jdbc.queryForList("SELECT indexname || ': ' || indexdef FROM pg_indexes WHERE "
				+ "schemaname = current_schema() AND tablename = '" + SCRIPTS_TABLE + "' AND indexname LIKE '%pending%'",
				String.class))
			.singleElement()
			.asString()
			.startsWith(SCRIPTS_TABLE + "_pending_idx: ")
			.endsWith("WHERE (((status)::text = 'PENDING'::text) AND (available_at IS NOT NULL))");
		assertThat(schema.count(SCRIPTS_TABLE)).isEqualTo(2);
	}

	@ParameterizedTest
	@ValueSource(strings = { "flyway", "scripts" })
	void aVersionThatFailedOutsideATransactionRunsAgainAtTheNextStart(String mode) {
		TestDatabase.POSTGRESQL.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(TestDatabase.POSTGRESQL, SCRIPTS_TABLE);
		schema.setUpWithTheScriptsUpTo(4);
		// Not an index: version 5's first statement fails on it.
		TestDatabase.POSTGRESQL.dropTable(SCRIPTS_TABLE + "_pending_due_idx");
		schema.jdbc.execute("CREATE TABLE " + SCRIPTS_TABLE + "_pending_due_idx (id INTEGER)");
		OutboxSchemaInitializer instance = mode.equals("flyway") ? schema.flyway() : schema.scripts();
		try {
			assertThatIllegalStateException().isThrownBy(instance::afterPropertiesSet)
				.withMessageContaining("V5__index_pending_rows_with_a_due_time.sql");
		}
		finally {
			TestDatabase.POSTGRESQL.dropTable(SCRIPTS_TABLE + "_pending_due_idx");
		}

		instance.afterPropertiesSet();

		assertThat(schema.appliedVersions()).contains(5);
		assertThat(schema.invalidIndexes()).isEmpty();
	}

	/**
	 * Version 6 needs the table's exclusive metadata lock, which a transaction that has used the table holds
	 * until it ends, and the inserts that come after the waiting ALTER queue behind it: the upgrade gives up
	 * instead of waiting for as long as that transaction lasts, and lets the inserts through.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "flyway", "scripts" })
	void anUpgradeOnMariaDbBehindALongTransactionFailsOnTheLockWaitInsteadOfHoldingUpBusinessWrites(String mode)
			throws Exception {
		TestDatabase.MARIADB.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(TestDatabase.MARIADB, SCRIPTS_TABLE);
		schema.setUpWithTheScriptsUpTo(5);
		OutboxSchemaInitializer instance = mode.equals("flyway") ? schema.flyway() : schema.scripts();

		try (Connection longTransaction = schema.dataSource.getConnection()) {
			longTransaction.setAutoCommit(false);
			try (Statement statement = longTransaction.createStatement()) {
				statement.executeQuery("SELECT COUNT(*) FROM " + SCRIPTS_TABLE).close();
			}
			CompletableFuture<Void> upgrade = CompletableFuture.runAsync(instance::afterPropertiesSet);
			await().atMost(Duration.ofMinutes(1))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> schema.sessionsWaitingForTheMetadataLock("ALTER TABLE") == 1);
			CompletableFuture<Void> businessWrite = CompletableFuture.runAsync(() -> schema.insertAtAnyVersion("k"));
			await().atMost(Duration.ofMinutes(1))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> upgrade.isDone() && businessWrite.isDone());

			assertThatExceptionOfType(CompletionException.class).isThrownBy(upgrade::join)
				.havingCause()
				.isInstanceOf(IllegalStateException.class)
				.withMessageContaining("V6__record_when_delayed_events_are_due.sql")
				.withMessageContaining("Lock wait timeout exceeded");
			businessWrite.join();
			longTransaction.rollback();
		}

		assertThat(schema.count(SCRIPTS_TABLE)).isOne();
		assertThat(schema.columns(SCRIPTS_TABLE)).doesNotContainKey("deliver_at");
		instance.afterPropertiesSet();
		assertThat(schema.columns(SCRIPTS_TABLE)).containsKeys("deliver_at", "delay_holds_key");
	}

	/**
	 * With the scripts only: a table that lacks version 5 alone has every later version, which Flyway, applying
	 * versions in order only, never leaves (a Flyway table at version 4 lacks version 6 too, and waits for it).
	 */
	@Test
	void anInstanceStartsWithoutWaitingWhileAnotherBuildsIndexesTheTableWorksWithout() throws Exception {
		TestDatabase.POSTGRESQL.dropTable(SCRIPTS_TABLE);
		Schema schema = new Schema(TestDatabase.POSTGRESQL, SCRIPTS_TABLE);
		schema.setUpWithTheScriptsBut(5);
		SchemaLock lock = new SchemaLock(SchemaStatements.load(DatabaseVendor.POSTGRESQL, SCRIPTS_TABLE), SCRIPTS_TABLE,
				SchemaLock.WAIT);
		OutboxSchemaInitializer instance = schema.scripts();

		try (Connection otherInstance = schema.dataSource.getConnection()) {
			lock.holding(otherInstance, () -> {
				CompletableFuture<Void> start = CompletableFuture.runAsync(instance::afterPropertiesSet);
				await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(20)).until(start::isDone);
				start.join();
			});
		}

		assertThat(schema.appliedVersions()).doesNotContain(5);
		instance.afterPropertiesSet();
		assertThat(schema.appliedVersions()).contains(5);
	}

	/** One table's view of the database. */
	private static final class Schema {

		private final DataSource dataSource;

		private final DatabaseVendor vendor;

		private final OutboxStore store;

		private final JdbcTemplate jdbc;

		private final String table;

		Schema(TestDatabase database, String table) {
			this.dataSource = OutboxTestTable.dataSource(database);
			this.vendor = DatabaseVendor.of(this.dataSource);
			this.store = new OutboxStore(this.dataSource, this.vendor,
					OutboxStatements.load(this.vendor, table, KeyOrdering.PER_KEY, PublishedRows.KEPT),
					new JsonMapper(), Relaying.POLLED, null);
			this.jdbc = new JdbcTemplate(this.dataSource);
			this.table = table;
		}

		boolean tableExists(String name) {
			Integer count = new NamedParameterJdbcTemplate(this.jdbc).queryForObject(
					SchemaStatements.load(this.vendor, this.table).tableExists(), Map.of("table", name), Integer.class);
			return count != null && count > 0;
		}

		ScriptOutboxSchemaInitializer scripts() {
			return new ScriptOutboxSchemaInitializer(this.dataSource, this.vendor, this.vendor.migrationLocation(),
					this.table);
		}

		FlywayOutboxSchemaInitializer flyway() {
			return new FlywayOutboxSchemaInitializer(this.dataSource, this.vendor.migrationLocation(), this.table);
		}

		/** Flyway as the starter configures it, at a location of choice. */
		FluentConfiguration flywayOf(String location) {
			return Flyway.configure(getClass().getClassLoader())
				.dataSource(this.dataSource)
				.locations(location)
				.table(this.table + "_schema_history")
				.placeholders(Map.of("table", this.table))
				.baselineOnMigrate(true)
				.baselineVersion("0");
		}

		/** Sets the table up as the scripts mode did, with their record, at a version. */
		void setUpWithTheScriptsUpTo(int version) {
			runShippedScriptsUpTo(version);
			AppliedVersions record = appliedVersionsReader();
			migrationScripts().stream().filter((script) -> script.version() <= version).forEach(record::record);
		}

		/** Sets the table up as the scripts mode did, with their record, with every version but one. */
		void setUpWithTheScriptsBut(int missing) {
			ResourceDatabasePopulator populator = new ResourceDatabasePopulator();
			List<MigrationScript> applied = migrationScripts().stream()
				.filter((script) -> script.version() != missing)
				.toList();
			applied.forEach((script) -> populator
				.addScript(new ByteArrayResource(script.sql().getBytes(StandardCharsets.UTF_8))));
			populator.execute(this.dataSource);
			AppliedVersions record = appliedVersionsReader();
			applied.forEach(record::record);
		}

		/**
		 * Inserts pending rows with the columns of the first version, which a table of any version has (the
		 * store's insert writes the columns of the latest).
		 */
		void insertAtAnyVersion(String... keys) {
			String now = switch (this.vendor) {
				case POSTGRESQL -> "clock_timestamp()";
				case MYSQL -> "UTC_TIMESTAMP(6)";
				case H2 -> "CURRENT_TIMESTAMP";
			};
			for (String key : keys) {
				CapturedEvent event = OutboxTestTable.event(key);
				this.jdbc.update("INSERT INTO " + this.table + " (id, aggregate_type, aggregate_id, event_type, "
						+ "transport, destination, message_key, payload, available_at, created_at) VALUES (?, ?, ?, ?, ?, "
						+ "?, ?, ?, " + now + ", " + now + ")", this.vendor.idParameter(event.id()), event.aggregateType(),
						event.aggregateId(), event.eventType(), event.transport(), event.destination(), event.messageKey(),
						event.payload());
			}
		}

		/** MariaDB's sessions waiting for a table's metadata lock to run a statement that starts so. */
		int sessionsWaitingForTheMetadataLock(String statement) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.processlist WHERE id <> "
					+ "CONNECTION_ID() AND state = 'Waiting for table metadata lock' AND info LIKE '" + statement
					+ " " + this.table + "%'", Integer.class);
		}

		Set<Integer> appliedVersions() {
			return appliedVersionsReader().read();
		}

		private AppliedVersions appliedVersionsReader() {
			return new AppliedVersions(new NamedParameterJdbcTemplate(this.dataSource),
					SchemaStatements.load(this.vendor, this.table), this.table, migrationScripts());
		}

		/** The indexes of this table that PostgreSQL marks invalid. */
		List<String> invalidIndexes() {
			return this.jdbc.queryForList("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = '"
					+ this.table + "'::regclass AND NOT indisvalid", String.class);
		}

		List<Integer> shippedVersions() {
			return migrationScripts().stream().map(MigrationScript::version).toList();
		}

		/** Sets the table up as the scripts mode did before it kept a record: every shipped script up to a version. */
		void runShippedScriptsUpTo(int version) {
			ResourceDatabasePopulator populator = new ResourceDatabasePopulator();
			migrationScripts().stream()
				.filter((script) -> script.version() <= version)
				.forEach((script) -> populator
					.addScript(new ByteArrayResource(script.sql().getBytes(StandardCharsets.UTF_8))));
			populator.execute(this.dataSource);
		}

		private List<MigrationScript> migrationScripts() {
			return MigrationScript.at(this.vendor.migrationLocation(), this.table, getClass().getClassLoader());
		}

		/** The versions the scripts recorded. */
		List<Integer> scriptRecord() {
			return this.jdbc.queryForList("SELECT version FROM " + this.table + "_script_history ORDER BY version",
					Integer.class);
		}

		/** Flyway's history of this table, as version:type, without the rows of no version (markers). */
		List<String> flywayHistory() {
			return this.jdbc.query("SELECT " + quoted("version") + ", " + quoted("type") + " FROM " + historyTable()
					+ " WHERE " + quoted("version") + " IS NOT NULL ORDER BY " + quoted("installed_rank"),
					(rs, row) -> rs.getString(1) + ":" + rs.getString(2));
		}

		/** Applied migrations of this table's history, as version:success. */
		List<String> migrations() {
			return this.jdbc.query("SELECT " + quoted("version") + ", " + quoted("success") + " FROM "
					+ historyTable() + " ORDER BY " + quoted("installed_rank"),
					(rs, row) -> rs.getString(1) + ":" + rs.getBoolean(2));
		}

		int count(String table) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Integer.class);
		}

		private String historyTable() {
			return quoted(this.table + "_schema_history");
		}

		private String quoted(String identifier) {
			return (this.vendor == DatabaseVendor.MYSQL) ? "`" + identifier + "`" : "\"" + identifier + "\"";
		}

		/** Column names (lower case) in table order, with their type names and sizes. */
		Map<String, String> columns(String table) {
			return metaData((metaData) -> {
				Map<String, String> columns = new LinkedHashMap<>();
				try (ResultSet rs = metaData.getColumns(catalog(metaData), null, name(table), null)) {
					while (rs.next()) {
						columns.put(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT), rs.getString("TYPE_NAME")
								+ "(" + rs.getInt("COLUMN_SIZE") + ") nullable=" + rs.getString("IS_NULLABLE"));
					}
				}
				return columns;
			});
		}

		/** Index names without the table name, with their columns. */
		Map<String, String> indexes(String table) {
			return metaData((metaData) -> {
				Map<String, String> indexes = new TreeMap<>();
				try (ResultSet rs = metaData.getIndexInfo(catalog(metaData), null, name(table), false, false)) {
					while (rs.next()) {
						String index = rs.getString("INDEX_NAME");
						if (index == null) {
							continue;
						}
						String name = index.toLowerCase(Locale.ROOT).replace(table.toLowerCase(Locale.ROOT), "*");
						if (name.startsWith("primary_key_") || name.endsWith("_pkey") || name.equals("primary")) {
							name = "primary";
						}
						else if (name.startsWith("constraint_")) {
							name = "unique-" + rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT);
						}
						indexes.merge(name, rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT),
								(a, b) -> a + "," + b);
					}
				}
				return indexes;
			});
		}

		private String catalog(DatabaseMetaData metaData) throws SQLException {
			// MariaDB's driver searches every database for a null catalog.
			return (this.vendor == DatabaseVendor.MYSQL) ? metaData.getConnection().getCatalog() : null;
		}

		private String name(String table) {
			return switch (this.vendor) {
				case POSTGRESQL -> table.toLowerCase(Locale.ROOT);
				case H2 -> table.toUpperCase(Locale.ROOT);
				case MYSQL -> table;
			};
		}

		private <T> T metaData(MetaDataWork<T> work) {
			try {
				return JdbcUtils.extractDatabaseMetaData(this.dataSource, work::apply);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		interface MetaDataWork<T> {

			T apply(DatabaseMetaData metaData) throws SQLException;

		}

	}

}
