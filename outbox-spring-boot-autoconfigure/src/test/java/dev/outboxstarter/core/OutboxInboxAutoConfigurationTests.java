package dev.outboxstarter.core;

import java.util.UUID;

import javax.sql.DataSource;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.Inbox;
import dev.outboxstarter.internal.housekeeping.InboxCleanup;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inbox is off until asked for; an {@link IdempotentConsumer} listener that could not be
 * deduplicated fails start-up with what to do.
 */
class OutboxInboxAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
				AopAutoConfiguration.class, OutboxAutoConfiguration.class, OutboxInboxAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void offByDefault() {
		this.runner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(Inbox.class));
	}

	@Test
	void enabledItCreatesItsTableAndDeduplicatesAnnotatedListeners() {
		this.runner.withPropertyValues("outbox.inbox.enabled=true", "outbox.inbox.table-name=consumed")
			.withBean(Listener.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(Inbox.class).hasSingleBean(InboxCleanup.class);
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM consumed", Integer.class)).isZero();
				Listener listener = context.getBean(Listener.class);
				ConsumerRecord<String, String> record = new ConsumerRecord<>("t", 0, 0, "k", "v");
				record.headers().add("outbox-message-id", "m-1".getBytes());
				listener.onMessage(record);
				listener.onMessage(record);
				assertThat(listener.calls()).as("the second delivery was skipped").isEqualTo(1);
				assertThat(jdbc.queryForObject("SELECT consumer FROM consumed", String.class)).isEqualTo("test");
			});
	}

	@Test
	void anAnnotatedListenerWithTheInboxOffFailsStartUpNamingTheProperty() {
		this.runner.withBean(Listener.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Listener.onMessage() is @IdempotentConsumer, but the inbox is off. Set "
						+ "outbox.inbox.enabled=true"));
	}

	@Test
	void anAnnotatedListenerWithoutTheMessageFailsStartUpNamingTheTypesItCanTake() {
		this.runner.withPropertyValues("outbox.inbox.enabled=true")
			.withBean(PayloadOnlyListener.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("PayloadOnlyListener.onPayload() is @IdempotentConsumer but takes no message "
						+ "with headers")
				.hasStackTraceContaining("org.apache.kafka.clients.consumer.ConsumerRecord"));
	}

	@Test
	void anInvalidInboxTableNameFailsNamingTheProperty() {
		this.runner.withPropertyValues("outbox.inbox.enabled=true", "outbox.inbox.table-name=in box")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("outbox.inbox.table-name: 'in box' is not a plain SQL identifier"));
	}

	static class Listener {

		private int calls;

		@IdempotentConsumer("test")
		public void onMessage(ConsumerRecord<String, String> record) {
			this.calls++;
		}

		// Read through a method: the test holds the class-based proxy, whose own fields are unused.
		public int calls() {
			return this.calls;
		}

	}

	static class PayloadOnlyListener {

		@IdempotentConsumer
		public void onPayload(String payload) {
		}

	}

}
