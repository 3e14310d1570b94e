package dev.outboxstarter.it.billing;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;

/**
 * A service with two data sources, as an application that keeps its billing apart has: the primary
 * one holds the outbox and is JPA's, with the JPA transaction manager as the primary one; the billing
 * one has a transaction manager of its own, {@code billingTm}. Both are declared by the application,
 * so Spring Boot's transaction manager customizers do not apply to them.
 */
@SpringBootApplication
public class BillingTestApplication {

	@Bean
	@Primary
	HikariDataSource dataSource(DataSourceProperties properties) {
		HikariDataSource dataSource = properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
		dataSource.setMaximumPoolSize(4);
		return dataSource;
	}

	@Bean(defaultCandidate = false)
	@Qualifier("billing")
	HikariDataSource billingDataSource(DataSourceProperties properties) {
		HikariDataSource dataSource = properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
		dataSource.setMaximumPoolSize(2);
		return dataSource;
	}

	@Bean
	@Primary
	JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory) {
		return new JpaTransactionManager(entityManagerFactory);
	}

	@Bean
	DataSourceTransactionManager billingTm(@Qualifier("billing") DataSource billingDataSource) {
		return new DataSourceTransactionManager(billingDataSource);
	}

}
