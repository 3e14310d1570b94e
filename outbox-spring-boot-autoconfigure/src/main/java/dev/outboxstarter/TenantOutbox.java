package dev.outboxstarter;

import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Where one tenant's outbox table lives: in a schema of its own on a data source the tenants share
 * ({@link #inSchema}), or in a database of its own ({@link #inDatabase}), of the same kind as the
 * primary data source's. The table's name is {@code outbox.table-name} in either case.
 *
 * @param tenant the tenant's id, as {@link OutboxTenants#currentTenant()} gives it
 * @param dataSource the data source the relay reads the tenant's table with
 * @param schema the tenant's schema (a database, on MariaDB and MySQL), or {@code null} for the data
 * source's own
 * @since 0.1.0
 */
public record TenantOutbox(String tenant, DataSource dataSource, @Nullable String schema) {

	private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

	public TenantOutbox {
		Assert.hasText(tenant, "A tenant needs an id");
		Assert.notNull(dataSource, () -> "The tenant '" + tenant + "' needs a DataSource");
		Assert.isTrue(schema == null || PLAIN_IDENTIFIER.matcher(schema).matches(),
				() -> "The schema '" + schema + "' of the tenant '" + tenant + "' is not a plain SQL identifier: "
						+ "use letters, digits and underscores, not starting with a digit");
	}

	/**
	 * A tenant whose tables are in a schema of its own, on a data source the tenants share: the
	 * application's connections for the tenant have that schema as their current one (as Hibernate's
	 * schema-per-tenant connection providers set it), and the outbox's table is in it.
	 * @param tenant the tenant's id
	 * @param dataSource the shared data source
	 * @param schema the tenant's schema
	 * @return the tenant's outbox
	 */
	public static TenantOutbox inSchema(String tenant, DataSource dataSource, String schema) {
		Assert.hasText(schema, () -> "The tenant '" + tenant + "' needs a schema");
		return new TenantOutbox(tenant, dataSource, schema);
	}

	/**
	 * A tenant with a database of its own, which the data source connects to: the application's
	 * transactions for the tenant run on it (directly, or through a routing data source that picks it
	 * for the current tenant), and the outbox's table is in it.
	 * @param tenant the tenant's id
	 * @param dataSource the tenant's data source
	 * @return the tenant's outbox
	 */
	public static TenantOutbox inDatabase(String tenant, DataSource dataSource) {
		return new TenantOutbox(tenant, dataSource, null);
	}

}
