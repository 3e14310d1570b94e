package dev.outboxstarter.internal.schema;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;

/**
 * Makes sure the outbox table exists before anything uses the database: a bean of this type is a
 * database initializer to Spring Boot (see {@link OutboxDatabaseInitializerDetector}), so JPA and
 * other database users start after it, and it runs after the application's own Flyway migrations.
 */
public abstract class OutboxSchemaInitializer implements InitializingBean {

	private static final Log logger = LogFactory.getLog(OutboxSchemaInitializer.class);

	@Override
	public void afterPropertiesSet() {
		initialize();
	}

	/**
	 * Creates, migrates or checks the outbox table.
	 */
	protected abstract void initialize();

	/**
	 * Whether this instance can start while another one holds the schema lock and migrates the table: once
	 * all that the table still lacks are index builds that run outside a transaction (which can take
	 * minutes on a large table, and which the table works without), it need not wait for them.
	 * @param table the table
	 * @param applied what the table has had
	 * @return whether it can start without the lock
	 */
	static boolean usableWhileAnotherInstanceMigrates(String table, AppliedVersions applied) {
		if (!applied.missingAndNeeded().isEmpty()) {
			return false;
		}
		logger.info("Another instance holds the schema lock of the table '" + table + "' while it builds indexes "
				+ "that the table works without; starting without waiting for it");
		return true;
	}

}
