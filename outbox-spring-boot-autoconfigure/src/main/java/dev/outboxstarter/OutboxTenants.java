package dev.outboxstarter;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * The tenants of a multi-tenant application, each with an outbox of its own: define a bean of this
 * type and every tenant's events go to its own table (in its schema or its database), published by
 * one relay that visits the tenants in turn on a fixed number of threads, so the connections the
 * outbox holds do not grow with the number of tenants.
 * <p>
 * Events of a transaction with no current tenant go to the outbox of the primary data source, as
 * they would without tenants.
 *
 * @since 0.1.0
 */
public interface OutboxTenants {

	/**
	 * The tenants whose outboxes are relayed. Asked at start, when the listed tenants' tables are
	 * created or migrated as {@code outbox.schema.mode} says, and at the start of each relay round
	 * (every {@code outbox.relay.poll-interval}), so tenants may come and go while the application runs:
	 * the table of a tenant listed later is made by the relay's next round, and until then the tenant's
	 * transactions that raise events fail on the missing table.
	 * @return the tenants' outboxes
	 */
	Collection<TenantOutbox> tenants();

	/**
	 * The tenant whose transaction runs on the current thread, which is where its events are stored:
	 * typically what Hibernate's {@code CurrentTenantIdentifierResolver} or the application's routing
	 * {@code DataSource} resolves.
	 * @return the tenant's id as {@link TenantOutbox#tenant()} gives it, or {@code null} for none
	 */
	@Nullable String currentTenant();

}
