package dev.outboxstarter.core;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox's own transactions (claims, marks, cleanup), on the application's data source whatever
 * the application's transaction manager: at read committed, so that each statement sees what other
 * instances committed.
 */
final class OutboxTransactions {

	private OutboxTransactions() {
	}

	/**
	 * Transactions at read committed. Where the data source's connections are at read committed
	 * already (PostgreSQL's and H2's default), the isolation is left as it is: asking for it per
	 * transaction makes Spring read the connection's level first, a round trip to the database on
	 * PostgreSQL that the publishing paths would pay for every batch.
	 * @param dataSource the application's data source
	 * @return the transactions
	 */
	static TransactionTemplate readCommitted(DataSource dataSource) {
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		if (!connectionsAreReadCommitted(dataSource)) {
			transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		}
		return transactions;
	}

	private static boolean connectionsAreReadCommitted(DataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			return connection.getTransactionIsolation() == Connection.TRANSACTION_READ_COMMITTED;
		}
		catch (SQLException ex) {
			// Ask for it on every transaction, which is right whatever the default.
			return false;
		}
	}

}
