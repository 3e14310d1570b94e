package dev.outboxstarter.core;

import javax.sql.DataSource;

import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OutboxTransactions}.
 */
class OutboxTransactionsTests {

	@Test
	void connectionsAlreadyAtReadCommittedKeepTheirIsolation() {
		DataSource dataSource = TestDatabase.POSTGRESQL.dataSource();
		TransactionTemplate transactions = OutboxTransactions.readCommitted(dataSource);

		assertThat(transactions.getIsolationLevel()).isEqualTo(TransactionDefinition.ISOLATION_DEFAULT);
		String isolation = transactions.execute((status) -> new JdbcTemplate(dataSource)
			.queryForObject("SHOW TRANSACTION ISOLATION LEVEL", String.class));
		assertThat(isolation).isEqualTo("read committed");
	}

	@Test
	void connectionsAtAnotherIsolationRunTheOutboxAtReadCommitted() {
		DataSource dataSource = TestDatabase.MARIADB.dataSource();
		TransactionTemplate transactions = OutboxTransactions.readCommitted(dataSource);

		assertThat(transactions.getIsolationLevel()).isEqualTo(TransactionDefinition.ISOLATION_READ_COMMITTED);
		String isolation = transactions.execute((status) -> new JdbcTemplate(dataSource)
			.queryForObject("SELECT @@tx_isolation", String.class));
		assertThat(isolation).isEqualTo("READ-COMMITTED");
	}

}
