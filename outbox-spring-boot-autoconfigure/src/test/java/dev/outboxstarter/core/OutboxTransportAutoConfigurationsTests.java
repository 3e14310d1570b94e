package dev.outboxstarter.core;

import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import dev.outboxstarter.testsupport.AcknowledgingTransport;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import org.junit.jupiter.api.Test;

import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transports come with the outbox and only with it: when the outbox backs off, none of them is
 * created, and none fails start-up on its own (the RabbitMQ one would, on a connection factory without
 * publisher confirms).
 */
class OutboxTransportAutoConfigurationsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				KafkaAutoConfiguration.class, RabbitAutoConfiguration.class, OutboxAutoConfiguration.class,
				StarterAutoConfigurations.KAFKA, StarterAutoConfigurations.RABBIT,
				StarterAutoConfigurations.LOCAL))
		.withPropertyValues("spring.rabbitmq.host=" + RabbitTestBroker.HOST,
				"spring.rabbitmq.port=" + RabbitTestBroker.PORT);

	private final ApplicationContextRunner withOutbox = this.runner.withPropertyValues(
			"spring.datasource.generate-unique-name=true", "spring.rabbitmq.publisher-confirm-type=correlated",
			"spring.rabbitmq.publisher-returns=true");

	@Test
	void withTwoDataSourcesAndNoPrimaryTheOutboxAndEveryTransportBackOff() {
		this.runner.withUserConfiguration(TwoDataSources.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("kafkaOutboxTransport")
				.doesNotHaveBean("rabbitOutboxTransport")
				.doesNotHaveBean("localOutboxTransport"));
	}

	@Test
	void withTheOutboxDisabledEveryTransportBacksOff() {
		this.runner.withPropertyValues("spring.datasource.generate-unique-name=true", "outbox.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("kafkaOutboxTransport")
				.doesNotHaveBean("rabbitOutboxTransport")
				.doesNotHaveBean("localOutboxTransport"));
	}

	@Test
	void withTheOutboxEveryTransportWhoseLibraryIsPresentIsCreated() {
		this.withOutbox.run((context) -> assertThat(context).hasBean("kafkaOutboxTransport")
				.hasBean("rabbitOutboxTransport")
				.hasBean("localOutboxTransport"));
	}

	@Test
	void twoTransportsWithOneNameFailStartUpNamingBoth() {
		this.withOutbox.withBean("ownKafka", OutboxTransport.class, () -> new AcknowledgingTransport("kafka"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Two outbox transports are named 'kafka'")
				.hasMessageContaining("dev.outboxstarter.kafka.KafkaOutboxTransport")
				.hasMessageContaining(AcknowledgingTransport.class.getName()));
	}

	@Test
	void transportThatTakesPrecedenceStandsInForAnotherOfItsName() {
		this.withOutbox.withBean("standIn", OutboxTransport.class, StandIn::new).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(OutboxTransports.class).byName().get("kafka")).isInstanceOf(StandIn.class);
		});
	}

	@Test
	void everyTransportIsDecoratedOnceWithTheFirstDecoratorOutermost() {
		this.withOutbox.withBean("ownTransport", OutboxTransport.class, () -> new AcknowledgingTransport("own"))
			.withBean("inner", OutboxTransportDecorator.class, () -> new LabellingDecorator("inner", 2))
			.withBean("outer", OutboxTransportDecorator.class, () -> new LabellingDecorator("outer", 1))
			.run((context) -> {
				OutboxTransports transports = context.getBean(OutboxTransports.class);
				assertThat(transports.names()).containsExactlyInAnyOrder("kafka", "rabbit", "local", "own");
				assertThat(transports.byName().get("own").toString()).isEqualTo("outer(inner(own))");
				assertThat(transports.byName().get("kafka").toString()).startsWith("outer(inner(")
					.doesNotContain("outer(inner(outer(");
			});
	}

	@Order(Ordered.HIGHEST_PRECEDENCE)
	private static final class StandIn extends AcknowledgingTransport {

		StandIn() {
			super("kafka");
		}

	}

	private record LabellingDecorator(String label, int order) implements OutboxTransportDecorator, Ordered {

		@Override
		public OutboxTransport decorate(OutboxTransport transport) {
			return new ForwardingOutboxTransport(transport) {

				@Override
				public String toString() {
					return LabellingDecorator.this.label + "(" + transport + ")";
				}

			};
		}

		@Override
		public int getOrder() {
			return this.order;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDataSources {

		@Bean(destroyMethod = "shutdown")
		EmbeddedDatabase orders() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

		@Bean(destroyMethod = "shutdown")
		EmbeddedDatabase billing() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

	}

}
