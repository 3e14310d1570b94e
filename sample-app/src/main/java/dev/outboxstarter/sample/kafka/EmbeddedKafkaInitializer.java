package dev.outboxstarter.sample.kafka;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts a real Kafka broker (KRaft mode, in this JVM, on a free port) before the application context
 * is refreshed, and points {@code spring.kafka.bootstrap-servers} at it, so that the sample runs with
 * no Kafka installed. The producer, the outbox transport and the listener containers are created
 * later and find the broker already up.
 * <p>
 * Only when {@code sample.kafka.embedded=true} (the default) and no
 * {@code spring.kafka.bootstrap-servers} is configured: the {@code kafka} profile turns it off and
 * uses an external broker. The broker is a bean of the context, registered first so that it is
 * destroyed last, after the consumers and the outbox have stopped.
 * <p>
 * Registered in {@code META-INF/spring.factories}, so it applies to {@code SpringApplication.run} and
 * to {@code @SpringBootTest} alike.
 */
public class EmbeddedKafkaInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

	/** Whether to start the in-JVM broker. */
	public static final String ENABLED_PROPERTY = "sample.kafka.embedded";

	static final String BOOTSTRAP_SERVERS_PROPERTY = "spring.kafka.bootstrap-servers";

	static final String BEAN_NAME = "sampleEmbeddedKafkaBroker";

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedKafkaInitializer.class);

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		if (!environment.getProperty(ENABLED_PROPERTY, Boolean.class, false)) {
			return;
		}
		if (environment.containsProperty(BOOTSTRAP_SERVERS_PROPERTY)) {
			logger.info("{} is set ({}): not starting an in-JVM Kafka broker", BOOTSTRAP_SERVERS_PROPERTY,
					environment.getProperty(BOOTSTRAP_SERVERS_PROPERTY));
			return;
		}
		String topic = environment.getProperty("sample.topic", "orders");
		int partitions = environment.getProperty("sample.topic-partitions", Integer.class, 3);
		InJvmKafkaBroker broker = InJvmKafkaBroker.start(topic, partitions);
		String bootstrapServers = broker.bootstrapServers();
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton(BEAN_NAME, broker);
		if (beanFactory instanceof DefaultListableBeanFactory registry) {
			registry.registerDisposableBean(BEAN_NAME, broker);
		}
		else {
			context.addApplicationListener((ContextClosedEvent event) -> broker.destroy());
		}
		environment.getPropertySources()
			.addFirst(new MapPropertySource("sampleEmbeddedKafka", Map.of(BOOTSTRAP_SERVERS_PROPERTY, bootstrapServers)));
		logger.info("Started an in-JVM Kafka broker (KRaft) at {} with topic '{}' ({} partitions)", bootstrapServers,
				topic, partitions);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
