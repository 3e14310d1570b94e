package dev.outboxstarter.local;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.spi.OutboxMessage;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

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

	@Test
	void handlersQueueHoldsABatchOfEachPathAndRefusesMore() {
		this.runner.withBean(BlockingHandler.class)
			.withUserConfiguration(Transactions.class)
			.withPropertyValues("outbox.fast-path.batch-size=1", "outbox.relay.batch-size=2")
			.run((context) -> {
				LocalOutboxTransport transport = context.getBean(LocalOutboxTransport.class);
				BlockingHandler handler = context.getBean(BlockingHandler.class);
				List<CompletableFuture<?>> accepted = new ArrayList<>();
				try {
					accepted.add(transport.send(mail()));
					await().atMost(Duration.ofSeconds(10)).until(() -> handler.running.getCount() == 0);
					for (int i = 0; i < 3; i++) {
						accepted.add(transport.send(mail()));
					}

					assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> transport.send(mail()));
				}
				finally {
					handler.mayFinish.countDown();
				}
				CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
				assertThat(handler.handled).hasValue(4);
			});
	}

	private static OutboxMessage mail() {
		return new OutboxMessage(UUID.randomUUID(), "Mail", null, null, "blocking", null, "{\"to\":\"ada\"}", Map.of(),
				Instant.now());
	}

	record Mail(String to) {
	}

	@Configuration(proxyBeanMethods = false)
	static class Transactions {

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

	}

	/** Its first call waits until the test lets it finish. */
	static class BlockingHandler {

		final CountDownLatch running = new CountDownLatch(1);

		final CountDownLatch mayFinish = new CountDownLatch(1);

		final AtomicInteger handled = new AtomicInteger();

		@OutboxHandler("blocking")
		void handle(Mail mail) throws InterruptedException {
			this.running.countDown();
			this.mayFinish.await(30, TimeUnit.SECONDS);
			this.handled.incrementAndGet();
		}

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
