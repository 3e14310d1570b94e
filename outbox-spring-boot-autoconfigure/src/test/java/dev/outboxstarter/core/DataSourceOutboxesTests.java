package dev.outboxstarter.core;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.AcknowledgingTransport;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import dev.outboxstarter.testsupport.TwoEmbeddedDataSources;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The outboxes of several data sources, on two embedded H2 databases: which data sources get one,
 * what the settings of {@code outbox.datasources} change, where capture writes, and how the other
 * outboxes show in the monitoring and the metrics. Delivery is off: the rows stay where capture wrote
 * them.
 */
class DataSourceOutboxesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
				OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA, StarterAutoConfigurations.METRICS))
		.withUserConfiguration(TwoEmbeddedDataSources.class)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues("outbox.routes[java.lang.String].destination=strings", "outbox.fast-path.enabled=false",
				"outbox.relay.enabled=false");

	@Test
	void dataSourceThatATransactionManagerRunsOnGetsAnOutboxThatItsTransactionsWriteTo() {
		this.runner.run((context) -> {
			publishIn(context, "transactionManager", "primary event");
			publishIn(context, "billingTransactionManager", "billing event");
			assertThat(payloads(context, "dataSource", "outbox_event")).containsExactly("\"primary event\"");
			assertThat(payloads(context, "billingDataSource", "outbox_event")).containsExactly("\"billing event\"");
		});
	}

	@Test
	void tableNameOfADataSourceOutboxIsItsOwn() {
		this.runner.withPropertyValues("outbox.datasources.billingDataSource.table-name=billing_outbox").run((context) -> {
			publishIn(context, "billingTransactionManager", "billing event");
			assertThat(payloads(context, "billingDataSource", "billing_outbox")).containsExactly("\"billing event\"");
			assertThat(tableExists(context, "billingDataSource", "outbox_event")).isFalse();
		});
	}

	@Test
	void dataSourceWhoseOutboxIsTurnedOffGetsNoTableAndItsTransactionsEventsAreRefused() {
		this.runner.withPropertyValues("outbox.datasources.billingDataSource.enabled=false").run((context) -> {
			assertThat(tableExists(context, "billingDataSource", "outbox_event")).isFalse();
			assertThat(context.getBean(OutboxMonitoring.class).otherOutboxes()).isEmpty();
			assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> publishIn(context, "billingTransactionManager", "billing event"))
				.withMessageContaining("does not use the outbox DataSource");
		});
	}

	@Test
	void dataSourceWithoutATransactionManagerGetsNoOutboxUnlessTurnedOn() {
		ApplicationContextRunner withoutBillingTransactions = this.runner
			.withPropertyValues("test.billing-transactions=false");
		withoutBillingTransactions.run((context) -> {
			assertThat(tableExists(context, "billingDataSource", "outbox_event")).isFalse();
			assertThat(context.getBean(OutboxMonitoring.class).otherOutboxes()).isEmpty();
		});
		withoutBillingTransactions.withPropertyValues("outbox.datasources.billingDataSource.enabled=true")
			.run((context) -> assertThat(tableExists(context, "billingDataSource", "outbox_event")).isTrue());
	}

	@Test
	void settingsOfADataSourceThatIsNotABeanFailStartUpNamingTheProperty() {
		this.runner.withPropertyValues("outbox.datasources.invoices.table-name=invoice_outbox")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("outbox.datasources.invoices names no DataSource bean")
				.hasMessageContaining("billingDataSource"));
	}

	@Test
	void settingsOfThePrimaryDataSourceFailStartUpNamingTheProperty() {
		this.runner.withPropertyValues("outbox.datasources.dataSource.table-name=other")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("outbox.datasources.dataSource names the primary DataSource"));
	}

	@Test
	void otherOutboxesAreMonitoredAndTheirBacklogGaugesCarryTheirName() {
		this.runner.run((context) -> {
			OutboxMonitoring monitoring = context.getBean(OutboxMonitoring.class);
			assertThat(monitoring.name()).isEqualTo("dataSource");
			assertThat(monitoring.otherOutboxes()).containsOnlyKeys("billingDataSource");
			publishIn(context, "billingTransactionManager", "billing event");
			assertThat(monitoring.otherOutboxes().get("billingDataSource").readBacklog().pending()).isEqualTo(1);
			assertThat(monitoring.readBacklog().pending()).isZero();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.find("outbox.backlog.pending").tag("outbox", "dataSource").gauge()).isNotNull();
			assertThat(meters.find("outbox.backlog.pending").tag("outbox", "billingDataSource").gauge()).isNotNull();
		});
	}

	@Test
	void deadEventsOfEveryOutboxCanBeRetried() {
		this.runner.run((context) -> {
			publishIn(context, "billingTransactionManager", "billing event");
			JdbcTemplate billing = jdbc(context, "billingDataSource");
			billing.update("UPDATE outbox_event SET status = 'DEAD'");
			UUID id = billing.queryForObject("SELECT id FROM outbox_event", UUID.class);
			assertThat(context.getBean(DeadEvents.class).retry(id)).isTrue();
			assertThat(billing.queryForObject("SELECT status FROM outbox_event", String.class)).isEqualTo("PENDING");
		});
	}

	@Test
	void administrationDiscardsAndRetriesTheEventsOfEveryOutbox() {
		this.runner.run((context) -> {
			publishIn(context, "billingTransactionManager", "kept");
			publishIn(context, "billingTransactionManager", "discarded");
			JdbcTemplate billing = jdbc(context, "billingDataSource");
			billing.update("UPDATE outbox_event SET status = 'DEAD'");
			UUID discarded = billing.queryForObject("SELECT id FROM outbox_event WHERE payload = ?", UUID.class,
					"\"discarded\"");
			OutboxAdministration administration = context.getBean(OutboxAdministration.class);
			assertThat(administration.discard(discarded)).isTrue();
			assertThat(administration.retryDead(EventQuery.all())).isOne();
			assertThat(billing.queryForList("SELECT status FROM outbox_event", String.class)).containsExactly("PENDING");
		});
	}

	@Test
	void publishingTheDueEventsForATestPublishesThoseOfEveryOutbox() {
		this.runner.withBean("acknowledging", OutboxTransport.class, () -> new AcknowledgingTransport("acknowledging"))
			.withPropertyValues("outbox.routes[java.lang.String].transport=acknowledging")
			.run((context) -> {
				publishIn(context, "transactionManager", "primary event");
				publishIn(context, "billingTransactionManager", "billing event");
				assertThat(context.getBean(OutboxTesting.class).publishDue()).isEqualTo(2);
				assertThat(jdbc(context, "billingDataSource")
					.queryForObject("SELECT COUNT(*) FROM outbox_event WHERE status = 'PENDING'", Integer.class)).isZero();
			});
	}

	@Test
	void severalDataSourcesWithoutAPrimaryOneFailStartUpNamingThem() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, OutboxAutoConfiguration.class,
					OutboxPrimaryDataSourceCheckAutoConfiguration.class))
			.withBean("ordersDataSource", DataSource.class, DataSourceOutboxesTests::embedded)
			.withBean("billingDataSource", DataSource.class, DataSourceOutboxesTests::embedded)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("several DataSource beans (ordersDataSource, billingDataSource) and none of "
						+ "them is the primary one")
				.hasMessageContaining("outbox.enabled=false"));
	}

	@Test
	void oneDataSourceNeedsNoPrimary() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
					OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA,
					OutboxPrimaryDataSourceCheckAutoConfiguration.class))
			.withBean("ordersDataSource", DataSource.class, DataSourceOutboxesTests::embedded)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(Outbox.class));
	}

	private static DataSource embedded() {
		return new DriverManagerDataSource("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
	}

	private static void publishIn(AssertableApplicationContext context, String transactionManager, String event) {
		new TransactionTemplate(context.getBean(transactionManager, PlatformTransactionManager.class))
			.executeWithoutResult((status) -> context.getBean(Outbox.class).publish(event));
	}

	private static List<String> payloads(AssertableApplicationContext context, String dataSource,
			String table) {
		return jdbc(context, dataSource).queryForList("SELECT payload FROM " + table + " ORDER BY seq", String.class);
	}

	private static boolean tableExists(AssertableApplicationContext context, String dataSource, String table) {
		return jdbc(context, dataSource).queryForObject(
				"SELECT COUNT(*) FROM information_schema.tables WHERE LOWER(table_name) = ?", Integer.class,
				table) > 0;
	}

	private static JdbcTemplate jdbc(AssertableApplicationContext context, String dataSource) {
		return new JdbcTemplate(context.getBean(dataSource, DataSource.class));
	}

}
