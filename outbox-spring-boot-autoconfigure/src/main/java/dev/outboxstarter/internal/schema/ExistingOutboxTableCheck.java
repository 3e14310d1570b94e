package dev.outboxstarter.internal.schema;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.store.OutboxStore;

/**
 * For applications that manage the outbox (or inbox) table themselves: fails start-up if the table is
 * missing, rather than failing the first transaction that needs it.
 */
public class ExistingOutboxTableCheck extends OutboxSchemaInitializer {

	private final OutboxStore store;

	private final String location;

	private final String kind;

	private final String table;

	/**
	 * Creates the check.
	 * @param store tells whether the table exists
	 * @param location the scripts that would create it, e.g. {@link DatabaseVendor#migrationLocation()}
	 * @param kind what the table is, {@code outbox} or {@code inbox}
	 * @param table the table name
	 */
	public ExistingOutboxTableCheck(OutboxStore store, String location, String kind, String table) {
		this.store = store;
		this.location = location;
		this.kind = kind;
		this.table = table;
	}

	@Override
	protected void initialize() {
		if (!this.store.tableExists(this.table)) {
			throw new OutboxConfigurationException("The " + this.kind + " table '" + this.table
					+ "' does not exist and outbox.schema.mode=none", "Create it with the scripts in the starter's "
							+ "jar under " + this.location.substring("classpath:".length())
							+ ", or set outbox.schema.mode to flyway or scripts");
		}
	}

}
