package dev.outboxstarter.logrelay;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.spi.EventHeadersContributor;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An application using the starter as a user would, in either relay mode, on the tests' outbox table.
 */
@SpringBootApplication
class LogRelayTestApplication {

	/** Headers stored with every event, as a trace context and a tenant would be. */
	@Bean
	EventHeadersContributor storedHeaders() {
		return (headers) -> {
			headers.put("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
			headers.put("tenant", "acme");
		};
	}

	/**
	 * Starts an instance.
	 * @param table the outbox table
	 * @param properties more {@code key=value} settings, e.g. {@code outbox.relay.mode=log}
	 * @return the running application
	 */
	static Instance start(String table, String... properties) {
		List<String> all = new ArrayList<>(List.of(TestDatabase.POSTGRESQL.properties()));
		all.addAll(List.of("outbox.table-name=" + table, "spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers(),
				"spring.main.banner-mode=off", "outbox.relay.poll-interval=100ms"));
		all.addAll(List.of(properties));
		return new Instance(new SpringApplicationBuilder(LogRelayTestApplication.class)
			.properties(all.toArray(String[]::new))
			.run());
	}

	/**
	 * A running instance.
	 *
	 * @param context its application context
	 */
	record Instance(ConfigurableApplicationContext context) implements AutoCloseable {

		/**
		 * Runs work in one business transaction.
		 * @param work what it does with the outbox
		 */
		void inTransaction(Consumer<Outbox> work) {
			Outbox outbox = this.context.getBean(Outbox.class);
			new TransactionTemplate(this.context.getBean(PlatformTransactionManager.class))
				.executeWithoutResult((status) -> work.accept(outbox));
		}

		/**
		 * Runs work in a business transaction that rolls back.
		 * @param work what it does with the outbox
		 */
		void inRolledBackTransaction(Consumer<Outbox> work) {
			Outbox outbox = this.context.getBean(Outbox.class);
			new TransactionTemplate(this.context.getBean(PlatformTransactionManager.class))
				.executeWithoutResult((status) -> {
					work.accept(outbox);
					status.setRollbackOnly();
				});
		}

		@Override
		public void close() {
			this.context.close();
		}

	}

	@OutboxEvent(destination = "log-relay-arrivals")
	record Arrival(int n) {
	}

	@OutboxEvent(destination = "log-relay-order")
	record KeyedStep(String key, int n) {
	}

	@OutboxEvent(destination = "log-relay-twins")
	record Twin(int n, String note) {
	}

	@OutboxEvent(destination = "log-relay-kill")
	record Survivor(int n) {
	}

	@OutboxEvent(destination = "log-relay-switch")
	record Switched(int n) {
	}

}
