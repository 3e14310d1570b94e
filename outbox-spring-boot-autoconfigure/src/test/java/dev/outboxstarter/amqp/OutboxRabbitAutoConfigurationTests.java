package dev.outboxstarter.amqp;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Start-up of the RabbitMQ transport on Spring Boot's RabbitMQ auto-configuration (an embedded H2
 * database for the outbox, the real broker where a connection is made): it refuses a connection
 * factory that cannot report each message's fate, and declares exactly the exchanges it is told to.
 */
class OutboxRabbitAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				RabbitAutoConfiguration.class, OutboxAutoConfiguration.class, OutboxRabbitAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
				"spring.rabbitmq.host=" + RabbitTestBroker.HOST, "spring.rabbitmq.port=" + RabbitTestBroker.PORT);

	private final ApplicationContextRunner confirmed = this.runner.withPropertyValues(
			"spring.rabbitmq.publisher-confirm-type=correlated", "spring.rabbitmq.publisher-returns=true");

	@Test
	void createsTheTransportOnATemplateOfItsOwnThatIsMandatoryAndConfiguredLikeBoots() {
		this.confirmed.withPropertyValues("spring.rabbitmq.template.default-receive-queue=outbox-test-receive")
			.run((context) -> {
				assertThat(context).hasSingleBean(RabbitOutboxTransport.class).hasSingleBean(Outbox.class);
				RabbitOutboxTransport transport = context.getBean(RabbitOutboxTransport.class);
				RabbitTemplate own = outboxTemplate(transport);
				RabbitTemplate application = context.getBean(RabbitTemplate.class);
				assertThat(own).isNotSameAs(application);
				assertThat(own.getConnectionFactory()).isSameAs(context.getBean(ConnectionFactory.class));
				assertThat(own.getDefaultReceiveQueue()).isEqualTo("outbox-test-receive");
				Message message = new Message(new byte[0], new MessageProperties());
				assertThat(own.isMandatoryFor(message)).isTrue();
				assertThat(transport.name()).isEqualTo("rabbit");
			});
	}

	@Test
	void leavesTheApplicationsTemplateNonMandatoryWhenTheApplicationSaysSo() {
		this.confirmed.withPropertyValues("spring.rabbitmq.template.mandatory=false").run((context) -> {
			Message message = new Message(new byte[0], new MessageProperties());
			assertThat(context.getBean(RabbitTemplate.class).isMandatoryFor(message)).isFalse();
			assertThat(outboxTemplate(context.getBean(RabbitOutboxTransport.class)).isMandatoryFor(message)).isTrue();
		});
	}

	@Test
	void publisherConfirmsDisabledFailsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("spring.rabbitmq.publisher-returns=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("needs correlated publisher confirms")
				.hasMessageContaining("confirm type is 'none'")
				.hasMessageContaining("spring.rabbitmq.publisher-confirm-type=correlated"));
	}

	@Test
	void simplePublisherConfirmsFailStartUpNamingTheProperty() {
		this.runner.withPropertyValues("spring.rabbitmq.publisher-confirm-type=simple",
				"spring.rabbitmq.publisher-returns=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("confirm type is 'simple'")
				.hasMessageContaining("spring.rabbitmq.publisher-confirm-type=correlated"));
	}

	@Test
	void publisherReturnsDisabledFailsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("spring.rabbitmq.publisher-confirm-type=correlated")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("needs publisher returns")
				.hasMessageContaining("spring.rabbitmq.publisher-returns=true"));
	}

	@Test
	void backsOffWhenSwitchedOffEvenWithoutConfirms() {
		this.runner.withPropertyValues("outbox.rabbit.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Outbox.class)
				.doesNotHaveBean(RabbitOutboxTransport.class));
		this.runner.withPropertyValues("outbox.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RabbitOutboxTransport.class));
	}

	@Test
	void hasNoRabbitTransportWithoutSpringAmqp() {
		this.confirmed.withClassLoader(new FilteredClassLoader(RabbitTemplate.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Outbox.class)
				.doesNotHaveBean(RabbitOutboxTransport.class));
	}

	@Test
	void declaresTheListedExchangesWhenItConnects() {
		String fanout = "outbox-test-declared-" + UUID.randomUUID();
		String topic = "outbox-test-declared-" + UUID.randomUUID();
		try {
			this.confirmed
				.withPropertyValues("outbox.rabbit.exchanges[0].name=" + fanout, "outbox.rabbit.exchanges[0].type=fanout",
						"outbox.rabbit.exchanges[0].durable=false", "outbox.rabbit.exchanges[1].name=" + topic)
				.run((context) -> {
					assertThat(RabbitTestBroker.exchangeExists(fanout)).isFalse();
					context.getBean(ConnectionFactory.class).createConnection();
					assertThat(RabbitTestBroker.exchangeExists(fanout)).isTrue();
					assertThat(RabbitTestBroker.exchangeExists(topic)).isTrue();
					// Declaring again with the same settings succeeds only if they are the ones declared.
					RabbitTestBroker.declareExchange(fanout, "fanout", false);
					RabbitTestBroker.declareExchange(topic, "topic", true);
				});
		}
		finally {
			RabbitTestBroker.deleteExchange(fanout);
			RabbitTestBroker.deleteExchange(topic);
		}
	}

	@Test
	void declaresNothingThatIsNotListedNotEvenTheExchangeItPublishesTo() {
		String exchange = "outbox-test-undeclared-" + UUID.randomUUID();
		this.confirmed.run((context) -> {
			assertThat(context.getBean(RabbitExchangeDeclarer.class).getExchanges()).isEmpty();
			CompletableFuture<?> sent = context.getBean(RabbitOutboxTransport.class)
				.send(message(exchange + "/anything"));
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> sent.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(RabbitChannelClosedException.class)
				.withMessageContaining("exchange '" + exchange + "'");
			assertThat(RabbitTestBroker.exchangeExists(exchange)).isFalse();
		});
	}

	@Test
	void exchangeNamesThatADestinationCannotAddressFailNamingTheProperty() {
		this.confirmed.withPropertyValues("outbox.rabbit.exchanges[0].name=orders/eu")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("outbox.rabbit.exchanges[0].name: 'orders/eu' contains '/'"));
		this.confirmed.withPropertyValues("outbox.rabbit.exchanges[0].name=amq.orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("outbox.rabbit.exchanges[0].name: 'amq.orders' starts with 'amq.'"));
		this.confirmed.withPropertyValues("outbox.rabbit.exchanges[0].type=fanout")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("outbox.rabbit.exchanges[0].name must not be empty"));
	}

	private static RabbitTemplate outboxTemplate(RabbitOutboxTransport transport) {
		return (RabbitTemplate) ReflectionTestUtils.getField(transport, "template");
	}

	private static OutboxMessage message(String destination) {
		return new OutboxMessage(UUID.randomUUID(), "test-event", null, null, destination, "key", "{}", Map.of(),
				Instant.now());
	}

}
