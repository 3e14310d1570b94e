package dev.outboxstarter.core.schema;

import dev.outboxstarter.core.store.DatabaseVendor;
import dev.outboxstarter.core.store.OutboxStore;

/**
 * For applications that manage the outbox table themselves: fails start-up if the table is missing,
 * rather than failing the first business transaction that raises an event.
 */
public class ExistingOutboxTableCheck extends OutboxSchemaInitializer {

	private final OutboxStore store;

	private final DatabaseVendor vendor;

	private final String table;

	public ExistingOutboxTableCheck(OutboxStore store, DatabaseVendor vendor, String table) {
		this.store = store;
		this.vendor = vendor;
		this.table = table;
	}

	@Override
	protected void initialize() {
		if (!this.store.tableExists(this.table)) {
			throw new IllegalStateException("The outbox table '" + this.table + "' does not exist and "
					+ "outbox.schema.mode=none: create it with the scripts in the starter's jar under "
					+ this.vendor.migrationLocation().substring("classpath:".length())
					+ ", or set outbox.schema.mode to flyway or scripts");
		}
	}

}
