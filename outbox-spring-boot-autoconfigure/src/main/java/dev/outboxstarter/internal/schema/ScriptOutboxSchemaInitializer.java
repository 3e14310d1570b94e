package dev.outboxstarter.internal.schema;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * Brings the outbox (or inbox) table up to the shipped SQL scripts' latest version, for applications
 * without Flyway: creates it when it is missing and applies the versions it lacks, each recorded in
 * {@code <table>_script_history}. A table the scripts created before they kept that record is recognised
 * by what it has (see {@link AppliedVersions}). Instances starting at once take turns under a
 * {@link SchemaLock}, and each checks again what the table has once it holds the lock.
 */
public class ScriptOutboxSchemaInitializer extends OutboxSchemaInitializer {

	private final DataSource dataSource;

	private final String location;

	private final DatabaseVendor vendor;

	private final String table;

	/**
	 * Creates the initializer.
	 * @param dataSource the data source
	 * @param vendor the data source's database vendor, which chooses the statements
	 * @param location the scripts, e.g. {@link DatabaseVendor#migrationLocation()}
	 * @param table the table they create, put into their {@code ${table}} placeholder
	 */
	public ScriptOutboxSchemaInitializer(DataSource dataSource, DatabaseVendor vendor, String location,
			String table) {
		this.dataSource = dataSource;
		this.vendor = vendor;
		this.location = location;
		this.table = table;
	}

	@Override
	protected void initialize() {
		SchemaStatements statements = SchemaStatements.load(this.vendor, this.table);
		List<MigrationScript> scripts = MigrationScript.at(this.location, this.table, getClass().getClassLoader());
		// One connection takes the lock and applies the scripts, so this needs no more than one from a pool.
		try (Connection connection = this.dataSource.getConnection()) {
			NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(
					new SingleConnectionDataSource(connection, true));
			new SchemaLock(statements, this.table, SchemaLock.WAIT).holdingUnlessNeedless(connection,
					() -> usableWhileAnotherInstanceMigrates(this.table,
							new AppliedVersions(jdbc, statements, this.table, scripts)),
					() -> upgrade(connection, statements, scripts));
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not connect to set up the table '" + this.table + "': "
					+ ex.getMessage(), ex);
		}
	}

	private void upgrade(Connection connection, SchemaStatements statements, List<MigrationScript> scripts) {
		NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(new SingleConnectionDataSource(connection, true));
		AppliedVersions history = new AppliedVersions(jdbc, statements, this.table, scripts);
		Set<Integer> applied = history.read();
		List<MigrationScript> missing = scripts.stream().filter((script) -> !applied.contains(script.version())).toList();
		if (missing.isEmpty()) {
			return;
		}
		// A table from before the record, or from Flyway: its record starts with what it has had.
		Set<Integer> recorded = history.recordedByScripts();
		for (MigrationScript script : scripts) {
			if (applied.contains(script.version()) && !recorded.contains(script.version())) {
				history.record(script);
			}
		}
		for (MigrationScript script : missing) {
			apply(connection, script, history);
		}
	}

	/**
	 * Applies one version and records it in one transaction: on PostgreSQL, whose DDL is transactional,
	 * a version is applied and recorded whole or not at all. A version that runs outside a transaction
	 * (an index built without holding back writes) runs statement by statement and is recorded after its
	 * last; it is written so that running it again completes what a failure cut short.
	 */
	private void apply(Connection connection, MigrationScript script, AppliedVersions history) {
		if (!script.inTransaction()) {
			applyOutsideATransaction(connection, script, history);
			return;
		}
		try {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(false);
			try {
				execute(connection, script);
				history.record(script);
				connection.commit();
			}
			catch (DataAccessException ex) {
				connection.rollback();
				throw new IllegalStateException("Could not apply " + script.name() + " to the table '" + this.table
						+ "' (" + describe(ex) + "). On MariaDB, MySQL and H2 each DDL statement commits on its "
						+ "own, so the statements of this script before the failing one may have been applied: "
						+ "complete or undo them by hand and start again. If the table has this version's change "
						+ "already, record it with a row (version " + script.version() + ", '" + script.name()
						+ "', the time) in " + this.table + "_script_history", ex);
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not apply " + script.name() + " to the table '" + this.table + "': "
					+ ex.getMessage(), ex);
		}
	}

	private void applyOutsideATransaction(Connection connection, MigrationScript script, AppliedVersions history) {
		try {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(true);
			try {
				execute(connection, script);
				history.record(script);
			}
			catch (DataAccessException ex) {
				throw new IllegalStateException("Could not apply " + script.name() + " to the table '" + this.table
						+ "' (" + describe(ex) + "). It runs outside a transaction and is written to be run "
						+ "again: remove the cause (a lock it waited for in vain?) and start again", ex);
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not apply " + script.name() + " to the table '" + this.table + "': "
					+ ex.getMessage(), ex);
		}
	}

	/** The failed statement with the database's own words, which say what went wrong (a lock wait?). */
	private static String describe(DataAccessException ex) {
		Throwable cause = ex.getMostSpecificCause();
		return (cause != ex) ? ex.getMessage() + ": " + cause.getMessage() : ex.getMessage();
	}

	private static void execute(Connection connection, MigrationScript script) {
		ScriptUtils.executeSqlScript(connection,
				new ByteArrayResource(script.sql().getBytes(StandardCharsets.UTF_8), script.name()));
	}

}
