package dev.outboxstarter.testsupport;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Two embedded H2 databases, each with a transaction manager: the primary {@code dataSource} with
 * {@code transactionManager}, and {@code billingDataSource}, which is not a default candidate for
 * injection, with {@code billingTransactionManager} unless {@code test.billing-transactions=false}.
 */
@Configuration(proxyBeanMethods = false)
public class TwoEmbeddedDataSources {

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
	@ConditionalOnBooleanProperty(name = "test.billing-transactions", matchIfMissing = true)
	PlatformTransactionManager billingTransactionManager(@Qualifier("billing") DataSource billingDataSource) {
		return new DataSourceTransactionManager(billingDataSource);
	}

	private static DataSource embedded() {
		return new DriverManagerDataSource("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
	}

}
