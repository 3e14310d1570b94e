package dev.outboxstarter.faults;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.TenantOutbox;
import org.hibernate.cfg.MultiTenancySettings;
import org.hibernate.context.spi.CurrentTenantIdentifierResolver;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The tenants of a fault run, when it has some ({@code fault.tenants=a:schema_a,b:schema_b}): a schema
 * each (a database, on MariaDB) on the instance's one data source, as with Hibernate's
 * schema-per-tenant multi-tenancy. A transaction runs as the tenant that {@link #as} makes current on
 * its thread: its Hibernate session's connection has the tenant's schema as its current one, so the
 * counter it increments is the tenant's, and the outbox stores its events in the tenant's table. A
 * transaction with no current tenant runs in the data source's own schema and its events go to the
 * primary outbox.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("fault.tenants")
class FaultTenants {

	/** The tenant identifier Hibernate is given for a transaction of no tenant. */
	static final String NO_TENANT = "-";

	private static final ThreadLocal<String> currentTenant = new ThreadLocal<>();

	/**
	 * Runs a piece of work (a whole transaction) as a tenant.
	 * @param tenant the tenant, or {@code null} for none
	 * @param work the work
	 */
	static void as(@Nullable String tenant, Runnable work) {
		currentTenant.set(tenant);
		try {
			work.run();
		}
		finally {
			currentTenant.remove();
		}
	}

	/**
	 * The tenant current on this thread.
	 * @return the tenant, or {@code null} for none
	 */
	static @Nullable String current() {
		return currentTenant.get();
	}

	/**
	 * The tenants and their schemas.
	 * @param property {@code tenant:schema} pairs, comma-separated, or {@code null}
	 * @return the schemas by tenant, in the given order
	 */
	static Map<String, String> parse(@Nullable String property) {
		Map<String, String> schemas = new LinkedHashMap<>();
		if (property != null && !property.isBlank()) {
			for (String pair : property.split(",")) {
				String[] parts = pair.trim().split(":");
				schemas.put(parts[0], parts[1]);
			}
		}
		return schemas;
	}

	@Bean
	OutboxTenants faultOutboxTenants(DataSource dataSource, Environment environment) {
		Map<String, String> schemas = parse(environment.getProperty("fault.tenants"));
		return new OutboxTenants() {

			@Override
			public Collection<TenantOutbox> tenants() {
				return schemas.entrySet()
					.stream()
					.map((tenant) -> TenantOutbox.inSchema(tenant.getKey(), dataSource, tenant.getValue()))
					.toList();
			}

			@Override
			public @Nullable String currentTenant() {
				return currentTenant.get();
			}

		};
	}

	@Bean
	HibernatePropertiesCustomizer faultSchemaPerTenant(DataSource dataSource, Environment environment) {
		Map<String, String> schemas = parse(environment.getProperty("fault.tenants"));
		boolean catalogs = environment.getRequiredProperty("spring.datasource.url").startsWith("jdbc:mariadb:");
		return (properties) -> {
			properties.put(MultiTenancySettings.MULTI_TENANT_CONNECTION_PROVIDER,
					new SchemaConnections(dataSource, schemas, catalogs));
			properties.put(MultiTenancySettings.MULTI_TENANT_IDENTIFIER_RESOLVER, new CurrentTenant());
		};
	}

	static final class CurrentTenant implements CurrentTenantIdentifierResolver<String> {

		@Override
		public String resolveCurrentTenantIdentifier() {
			String tenant = currentTenant.get();
			return (tenant != null) ? tenant : NO_TENANT;
		}

		@Override
		public boolean validateExistingCurrentSessions() {
			return false;
		}

	}

	/**
	 * A tenant's connections have its schema as their current one, set when Hibernate takes the
	 * connection and set back when it gives it back to the pool, which the outbox's own connections come
	 * from too. MariaDB's schemas are databases: its connections switch their catalog instead.
	 */
	static final class SchemaConnections implements MultiTenantConnectionProvider<String> {

		private final DataSource dataSource;

		private final Map<String, String> schemas;

		private final boolean catalogs;

		private volatile @Nullable String primary;

		SchemaConnections(DataSource dataSource, Map<String, String> schemas, boolean catalogs) {
			this.dataSource = dataSource;
			this.schemas = Map.copyOf(schemas);
			this.catalogs = catalogs;
		}

		@Override
		public Connection getAnyConnection() throws SQLException {
			return this.dataSource.getConnection();
		}

		@Override
		public void releaseAnyConnection(Connection connection) throws SQLException {
			connection.close();
		}

		@Override
		public Connection getConnection(String tenant) throws SQLException {
			Connection connection = this.dataSource.getConnection();
			String schema = this.schemas.get(tenant);
			if (schema != null) {
				try {
					if (this.primary == null) {
						this.primary = current(connection);
					}
					use(connection, schema);
				}
				catch (SQLException | RuntimeException ex) {
					connection.close();
					throw ex;
				}
			}
			return connection;
		}

		@Override
		public void releaseConnection(String tenant, Connection connection) throws SQLException {
			try {
				String primary = this.primary;
				if (this.schemas.containsKey(tenant) && primary != null) {
					use(connection, primary);
				}
			}
			finally {
				connection.close();
			}
		}

		private String current(Connection connection) throws SQLException {
			return this.catalogs ? connection.getCatalog() : connection.getSchema();
		}

		private void use(Connection connection, String schema) throws SQLException {
			if (this.catalogs) {
				connection.setCatalog(schema);
			}
			else {
				connection.setSchema(schema);
			}
		}

		@Override
		public boolean supportsAggressiveRelease() {
			return false;
		}

		@Override
		public boolean isUnwrappableAs(Class<?> type) {
			return false;
		}

		@Override
		public <T> T unwrap(Class<T> type) {
			throw new UnsupportedOperationException();
		}

	}

}
