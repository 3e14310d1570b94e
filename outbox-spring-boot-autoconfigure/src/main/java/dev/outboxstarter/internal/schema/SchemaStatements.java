package dev.outboxstarter.internal.schema;

import java.util.Properties;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.jdbc.TableName;

import org.springframework.util.Assert;

/**
 * The SQL that sets up one table (the outbox's or the inbox's), from the same
 * {@code db/outbox/statements/<vendor>.properties} as the outbox's statements.
 *
 * @param tableExists counts the tables with a given name ({@code :table}) in the current schema
 * @param indexExists counts the indexes with a given name ({@code :index}) of a table ({@code :table})
 * @param lock takes the schema lock of the table if no other session holds it, and returns 1 if it did, 0
 * otherwise; empty where the database has no such lock
 * @param unlock releases the schema lock
 * @param createScriptHistory creates the record of the versions the scripts applied
 * @param scriptHistoryVersions reads the versions the scripts applied
 * @param recordScript records one applied version ({@code :version}, {@code :script})
 * @param flywayHistoryVersions reads the versions (and their types) Flyway applied successfully
 * @param flywayHistoryAcceptChecksum replaces the checksum ({@code :supersededChecksum}) Flyway recorded for
 * a version ({@code :version}) by another ({@code :checksum})
 * @param flywayHistoryForgetFailure removes Flyway's record of a version ({@code :version}) that failed
 */
record SchemaStatements(String tableExists, String indexExists, String lock, String unlock,
		String createScriptHistory, String scriptHistoryVersions, String recordScript, String flywayHistoryVersions,
		String flywayHistoryAcceptChecksum, String flywayHistoryForgetFailure) {

	static SchemaStatements load(DatabaseVendor vendor, String table) {
		TableName.check(table);
		Properties sql = vendor.statements();
		return new SchemaStatements(statement(sql, "table-exists", table), statement(sql, "index-exists", table),
				statement(sql, "schema-lock", table), statement(sql, "schema-unlock", table),
				statement(sql, "script-history-create", table), statement(sql, "script-history-versions", table),
				statement(sql, "script-history-insert", table), statement(sql, "flyway-history-versions", table),
				statement(sql, "flyway-history-accept-checksum", table),
				statement(sql, "flyway-history-forget-failure", table));
	}

	private static String statement(Properties sql, String name, String table) {
		String statement = sql.getProperty(name);
		Assert.state(statement != null, () -> "No statement '" + name + "' for the schema");
		return statement.replace("{table}", table);
	}

}
