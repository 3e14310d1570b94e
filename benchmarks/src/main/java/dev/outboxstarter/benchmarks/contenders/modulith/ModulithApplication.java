package dev.outboxstarter.benchmarks.contenders.modulith;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.support.converter.ByteArrayJacksonJsonMessageConverter;
import org.springframework.kafka.support.converter.RecordMessageConverter;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.RoutingTarget;
import org.springframework.modulith.events.support.BrokerRouting;
import org.springframework.modulith.events.support.EventExternalizationTransport;
import org.springframework.modulith.events.support.EventExternalizerModuleListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Spring Modulith's event publication registry (JPA) with its Kafka externalization: a JDBC business
 * insert and {@code publishEvent} in one transaction; the registry stores the publication in that
 * transaction and, after the commit, its externalizer sends the event. What
 * {@code spring-modulith-events-kafka} registers is rebuilt here from Modulith's own classes, since
 * that module is not available to this build.
 */
@SpringBootApplication(excludeName = "dev.outboxstarter.core.OutboxAutoConfiguration")
public class ModulithApplication {

	@Bean
	EventExternalizationConfiguration eventExternalizationConfiguration(@Value("${bench.topic}") String topic) {
		// As @Externalized("<topic>::#{key()}") would do, without SpEL: the order id is the record key,
		// like every other contender's.
		return EventExternalizationConfiguration.externalizing()
			.select(OrderPlaced.class::isInstance)
			.route(OrderPlaced.class, (event) -> RoutingTarget.forTarget(topic).andKey(event.key()))
			.build();
	}

	/**
	 * The externalizer as {@code KafkaEventExternalizerConfiguration} (spring-modulith-events-kafka
	 * 2.1) defines it: Modulith's asynchronous after-commit module listener, which marks the
	 * publication completed when the returned send future completes.
	 * @param configuration what to externalize and where to
	 * @param kafka the template
	 * @param beanFactory for SpEL routing expressions
	 * @return the listener
	 */
	@Bean
	EventExternalizerModuleListener kafkaEventExternalizer(EventExternalizationConfiguration configuration,
			KafkaOperations<Object, Object> kafka, BeanFactory beanFactory) {
		StandardEvaluationContext context = new StandardEvaluationContext();
		context.setBeanResolver(new BeanFactoryResolver(beanFactory));
		EventExternalizationTransport transport = (payload, target) -> {
			BrokerRouting routing = BrokerRouting.of(target, context);
			MessageBuilder<?> builder = (payload instanceof Message<?> message) ? MessageBuilder.fromMessage(message)
					: MessageBuilder.withPayload(payload).copyHeaders(configuration.getHeadersFor(payload));
			Message<?> message = builder.setHeaderIfAbsent(KafkaHeaders.KEY, routing.getKey(payload))
				.setHeaderIfAbsent(KafkaHeaders.TOPIC, routing.getTarget(payload))
				.build();
			return kafka.send(message);
		};
		return new EventExternalizerModuleListener(configuration, transport);
	}

	/**
	 * The JSON conversion the Kafka module registers ({@code KafkaJacksonConfiguration}); Boot applies it
	 * to the template, with a byte array value serializer.
	 * @return the converter
	 */
	@Bean
	RecordMessageConverter jsonMessageConverter() {
		return new ByteArrayJacksonJsonMessageConverter();
	}

	@Service
	public static class Orders {

		private final JdbcTemplate jdbc;

		private final ApplicationEventPublisher events;

		Orders(JdbcTemplate jdbc, ApplicationEventPublisher events) {
			this.jdbc = jdbc;
			this.events = events;
		}

		@Transactional
		public void place(String key, String payload) {
			this.jdbc.update("INSERT INTO bench_order (order_key) VALUES (?)", key);
			this.events.publishEvent(new OrderPlaced(key, payload));
		}

	}

	public record OrderPlaced(String key, String payload) {
	}

}
