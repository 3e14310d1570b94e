package dev.outboxstarter.local;

import java.util.UUID;

import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.spi.OutboxMessage;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up checks of {@code @OutboxHandler} methods, on the outbox of an embedded H2 database.
 */
class OutboxLocalAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				OutboxAutoConfiguration.class, OutboxLocalAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void handlersTakingTheEventAndOptionallyTheMessageAreAccepted() {
		this.runner.withBean(GoodHandlers.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LocalOutboxTransport.class));
	}

	@Test
	void twoHandlersWithOneNameFailStartUpNamingBoth() {
		this.runner.withBean(GoodHandlers.class)
			.withBean(DuplicateHandler.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("Two @OutboxHandler methods are named 'emails'")
				.hasMessageContaining("GoodHandlers.send")
				.hasMessageContaining("DuplicateHandler.sendAgain"));
	}

	@Test
	void handlerWithParametersTheOutboxCannotSupplyFailsStartUp() {
		this.runner.withBean(BadHandler.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContaining("must take the event and, optionally, the OutboxMessage"));
	}

	@Test
	void backsOffWhenTheOutboxIsDisabled() {
		this.runner.withBean(BadHandler.class)
			.withPropertyValues("outbox.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LocalOutboxTransport.class));
	}

	record Mail(String to) {
	}

	static class GoodHandlers {

		@OutboxHandler("emails")
		void send(Mail mail) {
		}

		@OutboxHandler("audit")
		void audit(OutboxMessage message, Mail mail) {
		}

	}

	static class DuplicateHandler {

		@OutboxHandler("emails")
		void sendAgain(Mail mail) {
		}

	}

	static class BadHandler {

		@OutboxHandler("bad")
		void handle(Mail mail, String extra) {
		}

	}

}
