package dev.outboxstarter.core;

import org.springframework.beans.factory.InitializingBean;

/**
 * Makes sure the outbox table exists before anything uses the database: a bean of this type is a
 * database initializer to Spring Boot (see {@link OutboxDatabaseInitializerDetector}), so JPA and
 * other database users start after it, and it runs after the application's own Flyway migrations.
 */
abstract class OutboxSchemaInitializer implements InitializingBean {

	@Override
	public void afterPropertiesSet() {
		initialize();
	}

	/**
	 * Creates, migrates or checks the outbox table.
	 */
	protected abstract void initialize();

}
