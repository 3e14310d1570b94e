package dev.outboxstarter.internal.store;

import java.sql.PreparedStatement;
import java.time.Duration;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * How long a claim's connection may stay idle before the database ends its transaction, releasing its
 * row locks: an instance that stops without dying would otherwise hold them, and with them every later
 * event of their keys on every instance, until TCP gives up on the connection, hours later.
 */
public final class ClaimIdleLimit {

	/**
	 * How much longer than the publish timeout a claim's connection may stay idle, at least.
	 */
	private static final Duration MIN_MARGIN = Duration.ofSeconds(10);

	/** MySQL's and MariaDB's largest {@code wait_timeout}. */
	private static final long MAX_SECONDS = 31_536_000;

	private static final Log logger = LogFactory.getLog(ClaimIdleLimit.class);

	private final NamedParameterJdbcTemplate jdbc;

	private final OutboxStatements sql;

	private final MapSqlParameterSource parameters;

	ClaimIdleLimit(NamedParameterJdbcTemplate jdbc, OutboxStatements statements, Duration limit) {
		this.jdbc = jdbc;
		this.sql = statements;
		this.parameters = new MapSqlParameterSource("millis", Math.min(limit.toMillis(), Integer.MAX_VALUE))
			.addValue("seconds", Math.min(ceilSeconds(limit), MAX_SECONDS));
	}

	/**
	 * The claim idle limit for a publish timeout: twice the publish timeout, and at least 10 s more than
	 * it. A healthy claim is idle while its batch is sent and acknowledged, which the publish timeout
	 * bounds; the margin is for a send begun just before the deadline that blocks past it, and for pauses
	 * of the JVM. Only an instance that stops without dying (a long GC pause, a frozen VM, a network
	 * partition) keeps a claim that long.
	 * @param publishTimeout {@code outbox.publish-timeout}
	 * @return the claim idle limit
	 */
	public static Duration forPublishTimeout(Duration publishTimeout) {
		Duration margin = (publishTimeout.compareTo(MIN_MARGIN) > 0) ? publishTimeout : MIN_MARGIN;
		return publishTimeout.plus(margin);
	}

	private static long ceilSeconds(Duration duration) {
		return duration.toSeconds() + ((duration.toNanosPart() > 0) ? 1 : 0);
	}

	/**
	 * Sets the limit for the claim's transaction, once: a batch over several tables claims in each. A
	 * setting of the session, rather than of the transaction, is put back once the transaction has
	 * completed, before the pool lends the connection to the application again; where that cannot be
	 * arranged (no transaction synchronization), the claim has no limit.
	 */
	void applyToClaim() {
		boolean synchronizing = TransactionSynchronizationManager.isSynchronizationActive();
		boolean sessionSetting = !this.sql.resetClaimIdle().isEmpty();
		if (sessionSetting && !synchronizing) {
			return;
		}
		Applied applied = new Applied(this.jdbc.getJdbcTemplate().getDataSource());
		if (synchronizing && TransactionSynchronizationManager.hasResource(applied)) {
			return;
		}
		this.jdbc.execute(this.sql.limitClaimIdle(), this.parameters, PreparedStatement::execute);
		if (synchronizing) {
			TransactionSynchronizationManager.bindResource(applied, Boolean.TRUE);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCompletion(int status) {
					TransactionSynchronizationManager.unbindResourceIfPossible(applied);
					if (sessionSetting) {
						resetSession();
					}
				}

			});
		}
	}

	/**
	 * Runs after the transaction, on its connection, still bound until the transaction manager's
	 * clean-up. It fails where the limit ended the connection: the pool discards a connection that
	 * failed that way.
	 */
	private void resetSession() {
		try {
			this.jdbc.getJdbcOperations().execute(this.sql.resetClaimIdle());
		}
		catch (DataAccessException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Could not put back the session's idle limit after an outbox claim; its connection "
						+ "is closed", ex);
			}
		}
	}

	/**
	 * Marks a transaction on the data source as limited.
	 */
	private record Applied(@Nullable DataSource dataSource) {

	}

}
