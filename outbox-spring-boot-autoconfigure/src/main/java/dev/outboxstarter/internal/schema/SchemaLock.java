package dev.outboxstarter.internal.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The lock one instance holds while it checks, creates or migrates a table, so that instances starting
 * at once on an empty schema take turns instead of creating the table twice. It is the database's lock
 * of a session (PostgreSQL's advisory lock, MariaDB's and MySQL's {@code GET_LOCK}), taken on the
 * connection the work runs on or next to it; on H2, which has none, a lock in this JVM, where an
 * embedded H2 database lives.
 */
final class SchemaLock {

	/**
	 * How long an instance waits for another to finish: longer than any shipped migration should take,
	 * short enough that one hung instance does not stop the others for good.
	 */
	static final Duration WAIT = Duration.ofMinutes(5);

	/** How often a waiting instance tries again to take the lock. */
	private static final Duration RETRY = Duration.ofMillis(200);

	private static final Map<String, ReentrantLock> inProcessLocks = new ConcurrentHashMap<>();

	private static final Log logger = LogFactory.getLog(SchemaLock.class);

	private final SchemaStatements statements;

	private final String table;

	private final Duration wait;

	SchemaLock(SchemaStatements statements, String table, Duration wait) {
		this.statements = statements;
		this.table = table;
		this.wait = wait;
	}

	/**
	 * Runs work while holding the lock.
	 * @param connection the connection that holds the lock (and may run the work)
	 * @param work the work
	 */
	void holding(Connection connection, Runnable work) {
		holdingUnlessNeedless(connection, () -> false, work);
	}

	/**
	 * Runs work while holding the lock, or, while another instance holds it, not at all once that instance's
	 * work no longer concerns this one.
	 * @param connection the connection that holds the lock (and may run the work)
	 * @param needless asked while another instance holds the lock: whether this one can go on without the work
	 * @param work the work
	 * @return whether the work ran
	 */
	boolean holdingUnlessNeedless(Connection connection, BooleanSupplier needless, Runnable work) {
		if (this.statements.lock().isBlank()) {
			holdingInProcess(connection, work);
			return true;
		}
		NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(new SingleConnectionDataSource(connection, true));
		if (!take(jdbc, needless)) {
			return false;
		}
		try {
			work.run();
			return true;
		}
		finally {
			try {
				jdbc.getJdbcTemplate().execute(this.statements.unlock());
			}
			catch (DataAccessException ex) {
				// Unlocking fails only with its connection, and a session's lock ends with its connection.
				logger.warn("Could not release the schema lock of the table '" + this.table + "'", ex);
			}
		}
	}

	/**
	 * Takes the lock, trying again until the wait is over. No statement waits for it: a session waiting
	 * in a statement holds a snapshot, and PostgreSQL's {@code CREATE INDEX CONCURRENTLY} in the session
	 * that holds the lock waits for every older snapshot to go, which would be for as long as this wait.
	 */
	private boolean take(NamedParameterJdbcTemplate jdbc, BooleanSupplier needless) {
		long deadline = System.nanoTime() + this.wait.toNanos();
		while (true) {
			Integer held;
			try {
				held = jdbc.queryForObject(this.statements.lock(), Map.of(), Integer.class);
			}
			catch (DataAccessException ex) {
				throw new IllegalStateException("Could not take the schema lock of the table '" + this.table + "': "
						+ ex.getMessage(), ex);
			}
			if (held != null && held == 1) {
				return true;
			}
			if (isNeedless(needless)) {
				return false;
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw notHeld(null);
			}
			try {
				TimeUnit.NANOSECONDS.sleep(Math.min(left, RETRY.toNanos()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw notHeld(ex);
			}
		}
	}

	private boolean isNeedless(BooleanSupplier needless) {
		try {
			return needless.getAsBoolean();
		}
		catch (DataAccessException ex) {
			// Read while the other instance changes the table: find out at the next try, or with the lock.
			logger.debug("Could not check whether the table '" + this.table + "' needs this instance to wait", ex);
			return false;
		}
	}

	private void holdingInProcess(Connection connection, Runnable work) {
		ReentrantLock lock = inProcessLocks.computeIfAbsent(inProcessKey(connection), (key) -> new ReentrantLock());
		try {
			if (!lock.tryLock(this.wait.toMillis(), TimeUnit.MILLISECONDS)) {
				throw notHeld(null);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw notHeld(ex);
		}
		try {
			work.run();
		}
		finally {
			lock.unlock();
		}
	}

	private String inProcessKey(Connection connection) {
		try {
			String url = connection.getMetaData().getURL();
			int settings = url.indexOf(';');
			return ((settings >= 0) ? url.substring(0, settings) : url) + "|" + connection.getSchema() + "|"
					+ this.table.toUpperCase(Locale.ROOT);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not identify the database of the table '" + this.table + "'", ex);
		}
	}

	private IllegalStateException notHeld(@Nullable Exception cause) {
		return new IllegalStateException("Waited " + this.wait.toSeconds() + " s for the schema lock of the table '"
				+ this.table + "' in vain: another instance holds it while it creates or migrates the table and has "
				+ "not finished. Find that instance (a migration that hangs, waiting for a lock on the table?) and "
				+ "stop it; the lock goes with its database connection", cause);
	}

}
