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
		return transactions(dataSource, connectionsAreReadCommitted(dataSource)
				? TransactionDefinition.ISOLATION_DEFAULT : TransactionDefinition.ISOLATION_READ_COMMITTED);
	}

	/**
	 * Transactions at read committed on a data source whose connections are at the same isolation as
	 * those of another's, found out without a connection: a tenant's parts are made inside a business
	 * transaction, which may hold the last connection of the pool.
	 * @param dataSource the data source
	 * @param model the transactions of a data source of the same database
	 * @return the transactions
	 */
	static TransactionTemplate readCommittedLike(DataSource dataSource, TransactionTemplate model) {
		return transactions(dataSource, model.getIsolationLevel());
	}

	private static TransactionTemplate transactions(DataSource dataSource, int isolation) {
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		transactions.setIsolationLevel(isolation);
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
