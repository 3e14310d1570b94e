package dev.outboxstarter.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;

import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Applies the versioned migrations of the outbox (or inbox) table with Flyway, recording them in a
 * history table of their own ({@code <table>_schema_history}) so they never mix with the
 * application's migrations. Instances starting at once take turns under a {@link SchemaLock}: Flyway's
 * own lock guards its migrations but not the creation of its history table, which two instances on an
 * empty schema can race for. A table the scripts mode set up is taken over at the version it has.
 */
class FlywayOutboxSchemaInitializer extends OutboxSchemaInitializer {

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
		SchemaStatements statements = SchemaStatements.load(DatabaseVendor.of(this.dataSource), this.table);
		// This connection only holds the lock (and reads); Flyway takes its own from the data source.
		try (Connection connection = this.dataSource.getConnection()) {
			new SchemaLock(statements, this.table, SchemaLock.WAIT).holding(connection,
					() -> migrate(baselineVersion(connection, statements)));
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
	private int baselineVersion(Connection connection, SchemaStatements statements) {
		AppliedVersions applied = new AppliedVersions(
				new NamedParameterJdbcTemplate(new SingleConnectionDataSource(connection, true)), statements,
				this.table, MigrationScript.at(this.location, this.table, getClass().getClassLoader()));
		if (applied.flywayHistoryExists() || !applied.tableExists(this.table)) {
			return 0;
		}
		return applied.contiguous(applied.read());
	}

	private void migrate(int baselineVersion) {
		FluentConfiguration configuration = Flyway.configure(getClass().getClassLoader())
			.dataSource(this.dataSource)
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
			flyway.migrate();
		}
		catch (FlywayException ex) {
			throw new IllegalStateException("Could not migrate the table '" + this.table + "' with Flyway ("
					+ ex.getMessage() + "). If Flyway lacks support for this database, add its module (e.g. "
					+ "org.flywaydb:flyway-database-postgresql or org.flywaydb:flyway-mysql) or set "
					+ "outbox.schema.mode=scripts", ex);
		}
	}

}
