package dev.outboxstarter.logrelay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.spi.EventHeadersContributor;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
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

	@Bean
	PrefixedFormat prefixedFormat() {
		return new PrefixedFormat();
	}

	/**
	 * Starts an instance.
	 * @param table the outbox table
	 * @param properties more {@code key=value} settings, e.g. {@code outbox.relay.mode=log}
	 * @return the running application
	 */
	static Instance start(String table, String... properties) {
		return start(new Class<?>[0], table, properties);
	}

	/**
	 * Starts an instance with more configuration than the application's own.
	 * @param configurations classes of {@code @Bean} methods, not components, that only the tests naming
	 * them get
	 * @param table the outbox table
	 * @param properties more {@code key=value} settings, e.g. {@code outbox.relay.mode=log}
	 * @return the running application
	 */
	static Instance start(Class<?>[] configurations, String table, String... properties) {
		List<Class<?>> sources = new ArrayList<>(List.of(LogRelayTestApplication.class));
		sources.addAll(List.of(configurations));
		List<String> all = new ArrayList<>(List.of(TestDatabase.POSTGRESQL.properties()));
		all.addAll(List.of("outbox.table-name=" + table, "spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers(),
				"spring.main.banner-mode=off", "outbox.relay.poll-interval=100ms",
				"outbox.cloudevents.source=/log-relay-tests"));
		all.addAll(List.of(properties));
		return new Instance(new SpringApplicationBuilder(sources.toArray(Class<?>[]::new))
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
		 * Runs work in one business transaction of a transaction manager other than the primary one.
		 * @param transactionManager the transaction manager's bean name
		 * @param work what it does with the outbox
		 */
		void inTransaction(String transactionManager, Consumer<Outbox> work) {
			Outbox outbox = this.context.getBean(Outbox.class);
			new TransactionTemplate(this.context.getBean(transactionManager, PlatformTransactionManager.class))
				.executeWithoutResult((status) -> work.accept(outbox));
		}

		/**
		 * Runs work in a business transaction that rolls back.
		 * @param work what it does with the outbox
		 */
		void inRolledBackTransaction(Consumer<Outbox> work) {
			inRolledBackTransaction(this.context.getBean(PlatformTransactionManager.class), work);
		}

		/**
		 * Runs work in a business transaction of a transaction manager other than the primary one that
		 * rolls back.
		 * @param transactionManager the transaction manager's bean name
		 * @param work what it does with the outbox
		 */
		void inRolledBackTransaction(String transactionManager, Consumer<Outbox> work) {
			inRolledBackTransaction(this.context.getBean(transactionManager, PlatformTransactionManager.class), work);
		}

		private void inRolledBackTransaction(PlatformTransactionManager transactionManager, Consumer<Outbox> work) {
			Outbox outbox = this.context.getBean(Outbox.class);
			new TransactionTemplate(transactionManager).executeWithoutResult((status) -> {
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

	@OutboxEvent(destination = "log-relay-twins", payloadFormat = PrefixedFormat.NAME)
	record BinaryTwin(int n) implements Numbered {
	}

	@OutboxEvent(destination = "log-relay-twins", format = "cloudevents", payloadFormat = PrefixedFormat.NAME)
	record BinaryCloudTwin(int n) implements Numbered {
	}

	@OutboxEvent(destination = "log-relay-twins", format = "cloudevents")
	record JsonCloudTwin(int n) {
	}

	interface Numbered {

		int n();

	}

	/**
	 * A binary format of the tests' own, with a schema: a zero byte, the destination, the bytes 0xFF and
	 * 0x00, then the number, none of it valid as JSON or as UTF-8.
	 */
	static final class PrefixedFormat implements OutboxPayloadSerializer {

		static final String NAME = "prefixed";

		static final String CONTENT_TYPE = "application/x-prefixed";

		@Override
		public String format() {
			return NAME;
		}

		@Override
		public SerializedPayload serialize(Object event, PayloadTarget target) {
			byte[] destination = target.destination().getBytes(StandardCharsets.UTF_8);
			byte[] number = Integer.toString(((Numbered) event).n()).getBytes(StandardCharsets.UTF_8);
			ByteBuffer bytes = ByteBuffer.allocate(destination.length + number.length + 3);
			bytes.put((byte) 0).put(destination).put((byte) 0xff).put((byte) 0).put(number);
			return new SerializedPayload(bytes.array(), CONTENT_TYPE, "urn:prefixed:" + target.destination());
		}

	}

	@OutboxEvent(destination = "log-relay-kill")
	record Survivor(int n) {
	}

	@OutboxEvent(destination = "log-relay-switch")
	record Switched(int n) {
	}

	@OutboxEvent(destination = "log-relay-two-databases")
	record Entry(String database, String key, int n) {
	}

}
