package dev.outboxstarter.kafka;

import java.util.UUID;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox's Kafka producer next to an application that uses Kafka transactions: the outbox
 * publishes outside them and says so at start-up, while the application's own template stays
 * transactional.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutboxKafkaAutoConfigurationTests {

	private static final String STARTUP_LINE = "The outbox publishes to Kafka outside Kafka transactions";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				KafkaAutoConfiguration.class, OutboxAutoConfiguration.class, OutboxKafkaAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void withATransactionIdPrefixTheOutboxPublishesOutsideKafkaTransactionsAndTheApplicationsTemplateStaysTransactional(
			CapturedOutput output) {
		this.runner.withPropertyValues("spring.kafka.producer.transaction-id-prefix=orders-tx-").run((context) -> {
			KafkaTemplate<?, ?> application = context.getBean(KafkaTemplate.class);
			assertThat(application.isTransactional()).isTrue();
			assertThat(application.getProducerFactory().getTransactionIdPrefix()).isEqualTo("orders-tx-");

			KafkaOutboxTransport transport = context.getBean(KafkaOutboxTransport.class);
			KafkaTemplate<?, ?> outbox = outboxTemplate(transport);
			assertThat(outbox.isTransactional()).isFalse();
			ProducerFactory<?, ?> outboxProducers = outbox.getProducerFactory();
			assertThat(outboxProducers.transactionCapable()).isFalse();
			assertThat(outboxProducers.getConfigurationProperties())
				.doesNotContainKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)
				.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
			assertThat(transport.keepsKeyOrder()).isTrue();
		});
		assertThat(output).containsOnlyOnce(STARTUP_LINE)
			.contains("spring.kafka.producer.transaction-id-prefix=orders-tx-");
	}

	@Test
	void withoutATransactionIdPrefixNothingIsSaidAboutTransactions(CapturedOutput output) {
		this.runner.run((context) -> assertThat(outboxTemplate(context.getBean(KafkaOutboxTransport.class))
			.isTransactional()).isFalse());
		assertThat(output).doesNotContain(STARTUP_LINE);
	}

	private static KafkaTemplate<?, ?> outboxTemplate(KafkaOutboxTransport transport) {
		return (KafkaTemplate<?, ?>) ReflectionTestUtils.getField(transport, "template");
	}

}
