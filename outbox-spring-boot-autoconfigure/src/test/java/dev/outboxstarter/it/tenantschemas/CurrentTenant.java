package dev.outboxstarter.it.tenantschemas;

import java.util.function.Supplier;

import org.hibernate.context.spi.CurrentTenantIdentifierResolver;
import org.jspecify.annotations.Nullable;

/**
 * The tenant whose request the current thread serves, as a web filter of a multi-tenant application
 * would set it from the request: Hibernate opens the sessions of the thread's transactions in the
 * tenant's schema, and the outbox writes their events to the tenant's outbox.
 */
public final class CurrentTenant implements CurrentTenantIdentifierResolver<String> {

	/** The schema of the data source's own connections, where the work of no tenant runs. */
	public static final String NO_TENANT = "tenancy";

	private static final ThreadLocal<String> tenant = new ThreadLocal<>();

	/**
	 * Runs work for a tenant on the current thread.
	 * @param <T> what the work returns
	 * @param id the tenant's id, its schema's name
	 * @param work the work
	 * @return what the work returned
	 */
	public static <T> T as(String id, Supplier<T> work) {
		String before = tenant.get();
		tenant.set(id);
		try {
			return work.get();
		}
		finally {
			if (before != null) {
				tenant.set(before);
			}
			else {
				tenant.remove();
			}
		}
	}

	/**
	 * Runs work for a tenant on the current thread.
	 * @param id the tenant's id, its schema's name
	 * @param work the work
	 */
	public static void run(String id, Runnable work) {
		as(id, () -> {
			work.run();
			return null;
		});
	}

	/**
	 * The current thread's tenant.
	 * @return its id, or {@code null} for none
	 */
	public static @Nullable String id() {
		return tenant.get();
	}

	@Override
	public String resolveCurrentTenantIdentifier() {
		String id = tenant.get();
		return (id != null) ? id : NO_TENANT;
	}

	@Override
	public boolean validateExistingCurrentSessions() {
		return false;
	}

}
