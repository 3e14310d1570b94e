package dev.outboxstarter.testsupport;

import java.util.List;

import javax.sql.DataSource;

import dev.outboxstarter.Inbox;
import dev.outboxstarter.internal.inbox.InboxStatements;
import dev.outboxstarter.internal.inbox.InboxStore;
import dev.outboxstarter.internal.inbox.TransactionalInbox;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.schema.FlywayOutboxSchemaInitializer;
import dev.outboxstarter.spi.InboxOutcomeListener;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Inboxes built as the auto-configuration builds them, for tests of other packages that need one on a
 * table of their own without an application context.
 */
public final class TestInboxes {

	private TestInboxes() {
	}

	/**
	 * Creates the table with the inbox's migrations, then an inbox on it that refuses messages without
	 * an id.
	 * @param dataSource the database
	 * @param table the inbox table's name
	 * @param listener told every outcome
	 * @return the inbox
	 */
	public static Inbox onNewTable(DataSource dataSource, String table, InboxOutcomeListener listener) {
		DatabaseVendor vendor = DatabaseVendor.of(dataSource);
		new FlywayOutboxSchemaInitializer(dataSource, vendor.inboxMigrationLocation(), table).afterPropertiesSet();
		return new TransactionalInbox(new InboxStore(dataSource, InboxStatements.load(vendor, table)),
				new DataSourceTransactionManager(dataSource), dataSource, false, List.of(listener));
	}

}
