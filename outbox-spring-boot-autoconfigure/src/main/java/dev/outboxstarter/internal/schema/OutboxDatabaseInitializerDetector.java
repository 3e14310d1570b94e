package dev.outboxstarter.internal.schema;

import java.util.Set;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;

/**
 * Tells Spring Boot that {@link OutboxSchemaInitializer} beans initialize the database. Ordered after
 * the Flyway detectors: the application's Flyway must see its schema before the outbox table is
 * there, or it would refuse a non-empty schema without its history table.
 */
class OutboxDatabaseInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

	@Override
	protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
		return Set.of(OutboxSchemaInitializer.class);
	}

	@Override
	public int getOrder() {
		return 10;
	}

}
