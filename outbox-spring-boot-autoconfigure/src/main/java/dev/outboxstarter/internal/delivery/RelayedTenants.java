package dev.outboxstarter.internal.delivery;

import java.util.Collection;

/**
 * The tenants' outboxes as the {@link TenantRelay} visits them.
 */
public interface RelayedTenants {

	/**
	 * The tenants to relay, asked at the start of each round.
	 * @return their ids
	 */
	Collection<String> tenants();

	/**
	 * What publishes a tenant's rows, its table made ready the first time it is asked for.
	 * @param tenant the tenant's id
	 * @return the tenant's delivery
	 * @throws RuntimeException if the tenant's outbox cannot be reached
	 */
	BatchDelivery delivery(String tenant);

	/**
	 * Tidies a tenant's table, once per round before its first batch, when its clean-up is due.
	 * @param tenant the tenant's id
	 * @throws RuntimeException if the tenant's outbox cannot be reached
	 */
	void tidy(String tenant);

}
