package dev.outboxstarter.internal.capture;

import org.jspecify.annotations.Nullable;

/**
 * The outboxes of the tenants of the primary data source, found by the tenant whose transaction runs
 * on the current thread.
 */
@FunctionalInterface
public interface TenantTargets {

	/**
	 * The current tenant's outbox.
	 * @return it, or {@code null} when no tenant is current and events go to the primary outbox
	 * @throws dev.outboxstarter.OutboxCaptureException if the current tenant has no outbox
	 */
	@Nullable CaptureTarget current();

}
