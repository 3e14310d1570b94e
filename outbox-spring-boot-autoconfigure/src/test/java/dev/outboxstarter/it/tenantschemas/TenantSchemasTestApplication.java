package dev.outboxstarter.it.tenantschemas;

import java.util.Collection;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.TenantOutbox;
import dev.outboxstarter.it.PublishedEvents;
import org.hibernate.cfg.MultiTenancySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;

/**
 * A multi-tenant service with a schema per tenant on one database, as Hibernate's schema-based
 * multi-tenancy has it: one pool of a fixed size, whose connections Hibernate switches to the current
 * tenant's schema for each session. The outbox gets the same tenants, each with its outbox table in its
 * schema, and the same current tenant.
 */
@SpringBootApplication
public class TenantSchemasTestApplication {

	/** The tenants, each with a schema of its name. */
	public static final List<String> TENANTS = IntStream.rangeClosed(1, 50)
		.mapToObj((tenant) -> "tenant_%02d".formatted(tenant))
		.toList();

	/** The most connections the application holds, whatever the number of tenants. */
	public static final int MAXIMUM_POOL_SIZE = 8;

	/** How the database knows the pool's connections. */
	public static final String APPLICATION_NAME = "outbox-tenant-schemas-it";

	@Bean
	HikariDataSource dataSource(DataSourceProperties properties) {
		HikariDataSource dataSource = properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
		dataSource.setPoolName(APPLICATION_NAME);
		dataSource.setMaximumPoolSize(MAXIMUM_POOL_SIZE);
		dataSource.setMinimumIdle(1);
		dataSource.setSchema(CurrentTenant.NO_TENANT);
		dataSource.addDataSourceProperty("ApplicationName", APPLICATION_NAME);
		return dataSource;
	}

	@Bean
	HibernatePropertiesCustomizer schemaPerTenant(DataSource dataSource) {
		return (properties) -> {
			properties.put(MultiTenancySettings.MULTI_TENANT_CONNECTION_PROVIDER,
					new SchemaPerTenantConnections(dataSource));
			properties.put(MultiTenancySettings.MULTI_TENANT_IDENTIFIER_RESOLVER, new CurrentTenant());
		};
	}

	@Bean
	PublishedEvents publishedEvents() {
		return new PublishedEvents();
	}

	@Bean
	OutboxTenants outboxTenants(DataSource dataSource) {
		return new OutboxTenants() {

			@Override
			public Collection<TenantOutbox> tenants() {
				return TENANTS.stream().map((tenant) -> TenantOutbox.inSchema(tenant, dataSource, tenant)).toList();
			}

			@Override
			public @Nullable String currentTenant() {
				return CurrentTenant.id();
			}

		};
	}

}
