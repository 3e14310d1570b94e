package dev.outboxstarter.core.schema;

import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.core.store.DatabaseVendor;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * Applies the outbox's versioned migrations with Flyway, recording them in a history table of their
 * own ({@code <table>_schema_history}) so they never mix with the application's migrations.
 */
public class FlywayOutboxSchemaInitializer extends OutboxSchemaInitializer {

	private final DataSource dataSource;

	private final DatabaseVendor vendor;

	private final String table;

	public FlywayOutboxSchemaInitializer(DataSource dataSource, DatabaseVendor vendor, String table) {
		this.dataSource = dataSource;
		this.vendor = vendor;
		this.table = table;
	}

	@Override
	protected void initialize() {
		Flyway flyway = Flyway.configure(getClass().getClassLoader())
			.dataSource(this.dataSource)
			.locations(this.vendor.migrationLocation())
			.table(this.table + "_schema_history")
			.placeholders(Map.of("table", this.table))
			// The schema already holds the application's tables: start the outbox history at 0.
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.load();
		try {
			flyway.migrate();
		}
		catch (FlywayException ex) {
			throw new IllegalStateException("Could not migrate the outbox table '" + this.table + "' with Flyway ("
					+ ex.getMessage() + "). If Flyway lacks support for this database, add its module (e.g. "
					+ "org.flywaydb:flyway-database-postgresql or org.flywaydb:flyway-mysql) or set "
					+ "outbox.schema.mode=scripts", ex);
		}
	}

}
