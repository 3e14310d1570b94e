package dev.outboxstarter.amqp;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.OutboxMonitoring;

import org.springframework.amqp.core.Exchange;
import org.springframework.amqp.core.ExchangeBuilder;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.amqp.autoconfigure.RabbitTemplateConfigurer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * The RabbitMQ transport, on the application's connection factory (and so its
 * {@code spring.rabbitmq.*} settings), with a template of its own configured like Spring Boot's.
 * Start-up fails when the connection factory lacks correlated publisher confirms or publisher returns.
 * Only with the outbox itself: without it (disabled, or no single DataSource) nothing is checked.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = "org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration")
@ConditionalOnClass(RabbitTemplate.class)
@ConditionalOnBean(OutboxMonitoring.class)
@ConditionalOnSingleCandidate(ConnectionFactory.class)
@ConditionalOnBooleanProperty(name = "outbox.rabbit.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OutboxRabbitProperties.class)
final class OutboxRabbitAutoConfiguration {

	private static final String TEMPLATE_CONFIGURER = "org.springframework.boot.amqp.autoconfigure.RabbitTemplateConfigurer";

	@Bean
	RabbitOutboxTransport rabbitOutboxTransport(ConnectionFactory connectionFactory, ListableBeanFactory beanFactory) {
		// Before anything else, so that a missing setting is reported as such.
		RabbitOutboxTransport.checkConfirmsAndReturns(connectionFactory);
		RabbitTemplate template = new RabbitTemplate();
		if (ClassUtils.isPresent(TEMPLATE_CONFIGURER, getClass().getClassLoader())) {
			BootTemplateSettings.apply(beanFactory, template, connectionFactory);
		}
		else {
			template.setConnectionFactory(connectionFactory);
		}
		return new RabbitOutboxTransport(template);
	}

	@Bean
	RabbitExchangeDeclarer rabbitOutboxExchangeDeclarer(ConnectionFactory connectionFactory,
			OutboxRabbitProperties properties) {
		return new RabbitExchangeDeclarer(connectionFactory, properties.getExchanges()
			.stream()
			.map(OutboxRabbitAutoConfiguration::exchange)
			.toList());
	}

	private static Exchange exchange(OutboxRabbitProperties.Exchange exchange) {
		return new ExchangeBuilder(exchange.getName(), exchange.getType().amqpName()).durable(exchange.isDurable())
			.build();
	}

	/**
	 * Applies Spring Boot's {@code spring.rabbitmq.template.*} settings (retry, observation, ...) when
	 * Boot's RabbitMQ auto-configuration runs. A class of its own so that the auto-configuration loads
	 * without {@code spring-boot-amqp}.
	 */
	private static final class BootTemplateSettings {

		static void apply(ListableBeanFactory beanFactory, RabbitTemplate template,
				ConnectionFactory connectionFactory) {
			RabbitTemplateConfigurer configurer = beanFactory.getBeanProvider(RabbitTemplateConfigurer.class)
				.getIfUnique();
			if (configurer != null) {
				configurer.configure(template, connectionFactory);
			}
			else {
				template.setConnectionFactory(connectionFactory);
			}
		}

	}

}
