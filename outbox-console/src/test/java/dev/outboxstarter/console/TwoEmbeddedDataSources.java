package dev.outboxstarter.console;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Two embedded H2 databases, each with a transaction manager, so each with an outbox: the primary
 * {@code dataSource} with {@code transactionManager}, and {@code billingDataSource}, which is not a
 * default candidate for injection, with {@code billingTransactionManager}.
 */
@Configuration(proxyBeanMethods = false)
class TwoEmbeddedDataSources {

	@Bean
	@Primary
	DataSource dataSource() {
		return embedded();
	}

	@Bean(defaultCandidate = false)
	@Qualifier("billing")
	DataSource billingDataSource() {
		return embedded();
	}

	@Bean
	@Primary
	PlatformTransactionManager transactionManager(DataSource dataSource) {
		return new DataSourceTransactionManager(dataSource);
	}

	@Bean
	PlatformTransactionManager billingTransactionManager(@Qualifier("billing") DataSource billingDataSource) {
		return new DataSourceTransactionManager(billingDataSource);
	}

	private static DataSource embedded() {
		return new DriverManagerDataSource("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
	}

}
