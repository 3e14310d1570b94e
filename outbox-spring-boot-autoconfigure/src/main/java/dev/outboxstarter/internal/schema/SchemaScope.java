package dev.outboxstarter.internal.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Runs schema work in another schema than a data source's own: on one of its connections whose current
 * schema (a database, on MariaDB and MySQL) is switched for the work and switched back after it, so the
 * shipped migrations, whose names of tables and indexes are unqualified, create a tenant's table in the
 * tenant's schema.
 */
public final class SchemaScope {

	private SchemaScope() {
	}

	/**
	 * Runs work on a connection of a data source in a schema.
	 * @param dataSource the data source
	 * @param vendor its database
	 * @param schema the schema the work runs in
	 * @param work given a data source of that one connection, whose closing leaves it open
	 */
	public static void run(DataSource dataSource, DatabaseVendor vendor, String schema, Consumer<DataSource> work) {
		try (Connection connection = dataSource.getConnection()) {
			boolean catalog = vendor == DatabaseVendor.MYSQL;
			String previous = catalog ? connection.getCatalog() : connection.getSchema();
			use(connection, catalog, schema);
			if (!catalog && connection.getSchema() == null) {
				// PostgreSQL takes a search path naming no schema that exists, and has no current schema.
				throw new DataAccessResourceFailureException("The schema '" + schema + "' does not exist: create "
						+ "it before the tenant is listed (the outbox makes the tenant's table, not its schema)");
			}
			try {
				work.accept(new SingleConnectionDataSource(connection, true));
			}
			finally {
				use(connection, catalog, previous);
			}
		}
		catch (SQLException ex) {
			throw new DataAccessResourceFailureException("Could not work on the outbox table in the schema '" + schema
					+ "': " + ex.getMessage(), ex);
		}
	}

	private static void use(Connection connection, boolean catalog, @Nullable String schema) throws SQLException {
		if (schema == null) {
			return;
		}
		if (catalog) {
			connection.setCatalog(schema);
		}
		else {
			connection.setSchema(schema);
		}
	}

}
