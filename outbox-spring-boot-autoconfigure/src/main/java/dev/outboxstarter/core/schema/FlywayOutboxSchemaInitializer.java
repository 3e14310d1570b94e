package dev.outboxstarter.core.schema;

import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.core.store.DatabaseVendor;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * Applies the versioned migrations of the outbox (or inbox) table with Flyway, recording them in a
 * history table of their own ({@code <table>_schema_history}) so they never mix with the
 * application's migrations.
 */
public class FlywayOutboxSchemaInitializer extends OutboxSchemaInitializer {

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
		Flyway flyway = Flyway.configure(getClass().getClassLoader())
			.dataSource(this.dataSource)
			.locations(this.location)
			.table(this.table + "_schema_history")
			.placeholders(Map.of("table", this.table))
			// The schema already holds the application's tables: start this history at 0.
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load();
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
