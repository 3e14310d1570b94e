package dev.outboxstarter.internal.operations;

import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.TenantsReading;

/**
 * What the monitoring reads of the tenants' outboxes.
 */
public interface TenantOutboxesView {

	/**
	 * How the tenants' relay fares.
	 * @return the reading
	 */
	TenantsReading reading();

	/**
	 * Reads the backlog of one tenant's outbox.
	 * @param tenant the tenant's id
	 * @return the reading
	 * @throws IllegalArgumentException if there is no such tenant
	 */
	BacklogReading readBacklog(String tenant);

}
