package dev.outboxstarter.it.twodatabases;

import java.util.Map;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxstarter.it.twodatabases.billing.Invoice;
import dev.outboxstarter.it.twodatabases.billing.InvoiceRepository;
import dev.outboxstarter.it.twodatabases.orders.CustomerOrder;
import dev.outboxstarter.it.twodatabases.orders.CustomerOrderRepository;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;

/**
 * A service with two databases, each with a JPA unit and a transaction manager of its own, as an
 * application that keeps its billing apart from its orders has: orders on the primary data source
 * ({@code spring.datasource.*}), invoices on the {@code billing} one ({@code billing.datasource.*}),
 * which is no default candidate, so that everything that wants one data source gets the orders'.
 * Both units are declared by the application, so Spring Boot's JPA auto-configuration backs off.
 */
@SpringBootApplication
public class TwoDatabasesTestApplication {

	private static LocalContainerEntityManagerFactoryBean entityManagerFactory(DataSource dataSource,
			Class<?> entityType, String unitName) {
		LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
		factory.setPersistenceUnitName(unitName);
		factory.setDataSource(dataSource);
		factory.setPackagesToScan(entityType.getPackageName());
		factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
		factory.setJpaPropertyMap(Map.of("hibernate.hbm2ddl.auto", "update"));
		return factory;
	}

	/**
	 * The orders unit, on the primary data source.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableJpaRepositories(basePackageClasses = CustomerOrderRepository.class,
			entityManagerFactoryRef = "entityManagerFactory", transactionManagerRef = "transactionManager")
	static class OrdersDatabase {

		@Bean
		@Primary
		HikariDataSource dataSource(DataSourceProperties properties) {
			HikariDataSource dataSource = properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
			dataSource.setMaximumPoolSize(4);
			return dataSource;
		}

		@Bean
		@Primary
		LocalContainerEntityManagerFactoryBean entityManagerFactory(DataSource dataSource) {
			return TwoDatabasesTestApplication.entityManagerFactory(dataSource, CustomerOrder.class, "orders");
		}

		@Bean
		@Primary
		JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory) {
			return new JpaTransactionManager(entityManagerFactory);
		}

	}

	/**
	 * The billing unit, on a data source of its own.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableJpaRepositories(basePackageClasses = InvoiceRepository.class,
			entityManagerFactoryRef = "billingEntityManagerFactory",
			transactionManagerRef = "billingTransactionManager")
	static class BillingDatabase {

		@Bean(defaultCandidate = false)
		@Qualifier("billing")
		HikariDataSource billingDataSource(Environment environment) {
			HikariDataSource dataSource = new HikariDataSource();
			dataSource.setJdbcUrl(environment.getRequiredProperty("billing.datasource.url"));
			dataSource.setUsername(environment.getRequiredProperty("billing.datasource.username"));
			dataSource.setPassword(environment.getProperty("billing.datasource.password", ""));
			dataSource.setMaximumPoolSize(2);
			return dataSource;
		}

		@Bean
		LocalContainerEntityManagerFactoryBean billingEntityManagerFactory(
				@Qualifier("billing") DataSource billingDataSource) {
			return TwoDatabasesTestApplication.entityManagerFactory(billingDataSource, Invoice.class, "billing");
		}

		@Bean
		JpaTransactionManager billingTransactionManager(
				@Qualifier("billingEntityManagerFactory") EntityManagerFactory billingEntityManagerFactory) {
			return new JpaTransactionManager(billingEntityManagerFactory);
		}

	}

}
