package dev.outboxstarter.internal.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.configuration.FluentConfiguration;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Applies the versioned migrations of the outbox (or inbox) table with Flyway, recording them in a
 * history table of their own ({@code <table>_schema_history}) so they never mix with the
 * application's migrations. Instances starting at once take turns under a {@link SchemaLock}: Flyway's
 * own lock guards its migrations but not the creation of its history table, which two instances on an
 * empty schema can race for. A table the scripts mode set up is taken over at the version it has.
 */
public class FlywayOutboxSchemaInitializer extends OutboxSchemaInitializer {

	private static final String POSTGRESQL_TRANSACTIONAL_LOCK = "flyway.postgresql.transactional.lock";

	/** Flyway's checksum of PostgreSQL's version 5 as it rebuilt the pending index in a transaction. */
	private static final int V5_PENDING_INDEX_IN_A_TRANSACTION = -1885394324;

	/**
	 * Checksums of shipped scripts as earlier releases shipped them, by script, where the script changed
	 * how it does its work but not what it leaves: PostgreSQL's version 5 rebuilt the pending index in a
	 * transaction that held back every write to the table, and now builds it concurrently.
	 */
	private static final Map<String, Integer> SUPERSEDED_CHECKSUMS = Map
		.of("V5__index_pending_rows_with_a_due_time.sql", V5_PENDING_INDEX_IN_A_TRANSACTION);

	private static final Log logger = LogFactory.getLog(FlywayOutboxSchemaInitializer.class);

	private final DataSource dataSource;

	private final String location;

	private final String table;

	/**
	 * Creates the initializer.
	 * @param dataSource the data source
	 * @param location the migrations, e.g. {@link DatabaseVendor#migrationLocation()}
	 * @param table the table they create, put into their {@code ${table}} placeholder
	 */
	public FlywayOutboxSchemaInitializer(DataSource dataSource, String location, String table) {
		this.dataSource = dataSource;
		this.location = location;
		this.table = table;
	}

	@Override
	protected void initialize() {
		DatabaseVendor vendor = DatabaseVendor.of(this.dataSource);
		SchemaStatements statements = SchemaStatements.load(vendor, this.table);
		List<MigrationScript> scripts = MigrationScript.at(this.location, this.table, getClass().getClassLoader());
		// This connection only holds the lock (and reads); Flyway takes its own from the data source.
		try (Connection connection = this.dataSource.getConnection()) {
			NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(
					new SingleConnectionDataSource(connection, true));
			AppliedVersions applied = new AppliedVersions(jdbc, statements, this.table, scripts);
			new SchemaLock(statements, this.table, SchemaLock.WAIT).holdingUnlessNeedless(connection,
					() -> usableWhileAnotherInstanceMigrates(this.table, applied),
					() -> migrate(vendor, jdbc, statements, scripts, baselineVersion(applied)));
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not connect to set up the table '" + this.table + "': "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * The version Flyway starts its history at: 0 for a new table, or for a table that the scripts mode
	 * set up (no history of Flyway's yet), the version it has.
	 */
	private int baselineVersion(AppliedVersions applied) {
		if (applied.flywayHistoryExists() || !applied.tableExists(this.table)) {
			return 0;
		}
		return applied.contiguous(applied.read());
	}

	private void migrate(DatabaseVendor vendor, NamedParameterJdbcTemplate jdbc, SchemaStatements statements,
			List<MigrationScript> scripts, int baselineVersion) {
		FluentConfiguration configuration = Flyway.configure(getClass().getClassLoader());
		if (vendor == DatabaseVendor.POSTGRESQL) {
			// Flyway's transactional lock keeps a transaction open on a connection of its own for the whole
			// run, and CREATE INDEX CONCURRENTLY waits for every older transaction to end: it would wait for
			// ever. Its session lock holds none; the schema lock makes instances take turns anyway.
			configuration.configuration(Map.of(POSTGRESQL_TRANSACTIONAL_LOCK, "false"));
		}
		configuration.dataSource(this.dataSource)
			.locations(this.location)
			.table(this.table + "_schema_history")
			.placeholders(Map.of("table", this.table))
			// The schema already holds the application's tables: start this history at 0, or at the
			// version of a table the scripts set up.
			.baselineOnMigrate(true)
			.baselineVersion(String.valueOf(baselineVersion));
		if (baselineVersion > 0) {
			configuration.baselineDescription("set up by outbox.schema.mode=scripts");
		}
		Flyway flyway = configuration.load();
		try {
			MigrationInfo[] applied = flyway.info().applied();
			acceptSupersededChecksums(applied, jdbc, statements);
			forgetFailuresOutsideATransaction(applied, jdbc, statements, scripts);
			flyway.migrate();
		}
		catch (FlywayException ex) {
			throw new IllegalStateException("Could not migrate the table '" + this.table + "' with Flyway ("
					+ ex.getMessage() + "). If Flyway lacks support for this database, add its module (e.g. "
					+ "org.flywaydb:flyway-database-postgresql or org.flywaydb:flyway-mysql) or set "
					+ "outbox.schema.mode=scripts", ex);
		}
	}

	/**
	 * Lets a version that failed outside a transaction at an earlier start run again: Flyway records such a
	 * failure and then refuses to migrate until someone repairs its history, but these versions are written
	 * to complete what a failure cut short when they run again.
	 */
	private void forgetFailuresOutsideATransaction(MigrationInfo[] applied, NamedParameterJdbcTemplate jdbc,
			SchemaStatements statements, List<MigrationScript> scripts) {
		for (MigrationInfo migration : applied) {
			if (migration.getState() != MigrationState.FAILED || migration.getVersion() == null) {
				continue;
			}
			String version = migration.getVersion().getVersion();
			boolean runsAgain = scripts.stream()
				.anyMatch((script) -> !script.inTransaction() && String.valueOf(script.version()).equals(version));
			if (runsAgain) {
				jdbc.update(statements.flywayHistoryForgetFailure(), Map.of("version", version));
				logger.warn("Version " + version + " of the table '" + this.table + "' failed at an earlier start; "
						+ "it runs outside a transaction and completes what the failure cut short: running it again");
			}
		}
	}

	/**
	 * Lets a version applied with an earlier text of its script pass Flyway's validation, where that text
	 * did what the shipped one does, only in another way.
	 */
	private void acceptSupersededChecksums(MigrationInfo[] applied, NamedParameterJdbcTemplate jdbc,
			SchemaStatements statements) {
		for (MigrationInfo migration : applied) {
			Integer superseded = SUPERSEDED_CHECKSUMS.get(migration.getScript());
			if (superseded == null || migration.isChecksumMatching() || !superseded.equals(migration.getAppliedChecksum())
					|| migration.getResolvedChecksum() == null) {
				continue;
			}
			jdbc.update(statements.flywayHistoryAcceptChecksum(),
					new MapSqlParameterSource("checksum", migration.getResolvedChecksum())
						.addValue("version", migration.getVersion().getVersion())
						.addValue("supersededChecksum", superseded));
			logger.info("The table '" + this.table + "' had " + migration.getScript() + " applied in its earlier "
					+ "text; its history now holds the checksum of the shipped one, which makes the same index");
		}
	}

}
