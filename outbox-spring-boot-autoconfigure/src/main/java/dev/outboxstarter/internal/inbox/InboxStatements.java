package dev.outboxstarter.internal.inbox;

import java.util.Properties;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.jdbc.TableName;

import org.springframework.util.Assert;

/**
 * The SQL of the inbox, from the same {@code db/outbox/statements/<vendor>.properties} as the outbox's.
 *
 * @param insert inserts a processed message id unless the consumer has it already
 * @param deleteExpired deletes a batch of ids processed longer ago than the retention
 */
public record InboxStatements(String insert, String deleteExpired) {

	/**
	 * Loads the statements of a vendor for an inbox table.
	 * @param vendor the database vendor
	 * @param table the inbox table name, a plain SQL identifier
	 * @return the statements
	 */
	public static InboxStatements load(DatabaseVendor vendor, String table) {
		TableName.check(table);
		Properties sql = vendor.statements();
		return new InboxStatements(statement(sql, "inbox-insert", table), statement(sql, "inbox-delete-expired", table));
	}

	private static String statement(Properties sql, String name, String table) {
		String statement = sql.getProperty(name);
		Assert.state(statement != null, () -> "No statement '" + name + "' for the inbox");
		return statement.replace("{inbox-table}", table);
	}

}
