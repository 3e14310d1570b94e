package dev.outboxstarter.core;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.core.OutboxProperties.Schema.Mode;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.schema.ExistingOutboxTableCheck;
import dev.outboxstarter.internal.schema.FlywayOutboxSchemaInitializer;
import dev.outboxstarter.internal.schema.OutboxSchemaInitializer;
import dev.outboxstarter.internal.schema.ScriptOutboxSchemaInitializer;

import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * The initializer {@code outbox.schema.mode} asks for, for the outbox table or the inbox table.
 */
final class SchemaInitializers {

	private SchemaInitializers() {
	}

	static OutboxSchemaInitializer forTable(Mode configuredMode, DataSource dataSource, DatabaseVendor vendor,
			String location, String kind, String table, ResourceLoader resourceLoader) {
		boolean flywayPresent = ClassUtils.isPresent("org.flywaydb.core.Flyway", resourceLoader.getClassLoader());
		Mode mode = configuredMode;
		if (mode == Mode.AUTO) {
			mode = flywayPresent ? Mode.FLYWAY : Mode.SCRIPTS;
		}
		return switch (mode) {
			case FLYWAY -> {
				if (!flywayPresent) {
					throw new OutboxConfigurationException(
							"outbox.schema.mode=flyway, but Flyway is not on the classpath",
							"Add org.flywaydb:flyway-core (and its module for your database), or set "
									+ "outbox.schema.mode to scripts or none");
				}
				yield new FlywayOutboxSchemaInitializer(dataSource, location, table);
			}
			case SCRIPTS -> new ScriptOutboxSchemaInitializer(dataSource, vendor, location, table);
			default -> new ExistingOutboxTableCheck(dataSource, vendor, location, kind, table);
		};
	}

}
