package dev.outboxstarter.internal.schema;

import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;

import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * For applications that manage the outbox (or inbox) table themselves: fails start-up if the table is
 * missing, rather than failing the first transaction that needs it.
 */
public class ExistingOutboxTableCheck extends OutboxSchemaInitializer {

	private final DataSource dataSource;

	private final DatabaseVendor vendor;

	private final String location;

	private final String kind;

	private final String table;

	/**
	 * Creates the check.
	 * @param dataSource the data source
	 * @param vendor its database vendor
	 * @param location the scripts that would create it, e.g. {@link DatabaseVendor#migrationLocation()}
	 * @param kind what the table is, {@code outbox} or {@code inbox}
	 * @param table the table name
	 */
	public ExistingOutboxTableCheck(DataSource dataSource, DatabaseVendor vendor, String location, String kind,
			String table) {
		this.dataSource = dataSource;
		this.vendor = vendor;
		this.location = location;
		this.kind = kind;
		this.table = table;
	}

	@Override
	protected void initialize() {
		String tableExists = SchemaStatements.load(this.vendor, this.table).tableExists();
		Integer count = new NamedParameterJdbcTemplate(this.dataSource).queryForObject(tableExists,
				Map.of("table", this.table), Integer.class);
		if (count == null || count == 0) {
			throw new OutboxConfigurationException("The " + this.kind + " table '" + this.table
					+ "' does not exist and outbox.schema.mode=none", "Create it with the scripts in the starter's "
							+ "jar under " + this.location.substring("classpath:".length())
							+ ", or set outbox.schema.mode to flyway or scripts");
		}
	}

}
