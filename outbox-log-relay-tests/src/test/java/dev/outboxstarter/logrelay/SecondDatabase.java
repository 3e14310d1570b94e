package dev.outboxstarter.logrelay;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.support.JdbcTransactionManager;

/**
 * A second database for the tests' application, with a transaction manager of its own, as a module
 * that owns its data has: the outbox finds it and gives it an outbox of its own. Not a component, so
 * that only the tests that start the application with it (see
 * {@link LogRelayTestApplication#start(Class[], String, String...)}) have a second database.
 */
class SecondDatabase {

	static final String TRANSACTION_MANAGER = "secondTransactionManager";

	/**
	 * The second database, from {@code second.datasource.*}; not a default candidate, so that everything
	 * that wants the data source (the primary outbox, Spring Boot's {@code JdbcTemplate}) still gets the
	 * primary one.
	 * @param environment where its settings are
	 * @return the data source
	 */
	@Bean(defaultCandidate = false)
	HikariDataSource secondDataSource(Environment environment) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(environment.getRequiredProperty("second.datasource.url"));
		dataSource.setUsername(environment.getRequiredProperty("second.datasource.username"));
		dataSource.setPassword(environment.getProperty("second.datasource.password", ""));
		return dataSource;
	}

	/**
	 * The primary database's transaction manager, declared since Spring Boot's backs off when the
	 * context has a transaction manager of its own.
	 * @param dataSource the primary data source
	 * @return the transaction manager
	 */
	@Bean
	@Primary
	JdbcTransactionManager transactionManager(DataSource dataSource) {
		return new JdbcTransactionManager(dataSource);
	}

	@Bean(TRANSACTION_MANAGER)
	JdbcTransactionManager secondTransactionManager(@Qualifier("secondDataSource") DataSource secondDataSource) {
		return new JdbcTransactionManager(secondDataSource);
	}

}
