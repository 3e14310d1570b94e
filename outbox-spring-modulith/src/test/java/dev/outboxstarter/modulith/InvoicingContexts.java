package dev.outboxstarter.modulith;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.modulith.invoicing.InvoicingApplication;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import dev.outboxstarter.testsupport.TestDatabase;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.modulith.events.config.EventExternalizationAutoConfiguration;

/**
 * The invoicing application with the outbox, Modulith's externalization and this module auto-configured
 * against PostgreSQL, outbox mode left to each test.
 */
final class InvoicingContexts {

	private InvoicingContexts() {
	}

	/**
	 * A runner of the application whose rows stay as they are written: nothing publishes them.
	 * @param table the outbox table
	 * @return the runner
	 */
	static ApplicationContextRunner withUnpublishedRowsIn(String table) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
					JacksonAutoConfiguration.class, KafkaAutoConfiguration.class, OutboxAutoConfiguration.class,
					StarterAutoConfigurations.KAFKA, EventExternalizationAutoConfiguration.class,
					ModulithOutboxAutoConfiguration.class))
			.withUserConfiguration(InvoicingApplication.class)
			.withPropertyValues(TestDatabase.POSTGRESQL.properties())
			.withPropertyValues("outbox.table-name=" + table, "outbox.fast-path.enabled=false",
					"outbox.relay.enabled=false");
	}

}
