package dev.outboxstarter.testsupport;

import org.springframework.util.ClassUtils;

/**
 * The starter's auto-configurations that live, package-private, next to what they configure, for the
 * {@code ApplicationContextRunner} tests of another package: loaded by the names the starter's
 * {@code AutoConfiguration.imports} lists.
 */
public final class StarterAutoConfigurations {

	public static final Class<?> KAFKA = load("dev.outboxstarter.kafka.OutboxKafkaAutoConfiguration");

	public static final Class<?> RABBIT = load("dev.outboxstarter.amqp.OutboxRabbitAutoConfiguration");

	public static final Class<?> LOCAL = load("dev.outboxstarter.local.OutboxLocalAutoConfiguration");

	public static final Class<?> METRICS = load("dev.outboxstarter.metrics.OutboxMetricsAutoConfiguration");

	public static final Class<?> OBSERVATION = load("dev.outboxstarter.tracing.OutboxObservationAutoConfiguration");

	public static final Class<?> HEALTH = load("dev.outboxstarter.actuate.OutboxHealthContributorAutoConfiguration");

	public static final Class<?> ENDPOINT = load("dev.outboxstarter.actuate.OutboxEndpointAutoConfiguration");

	private StarterAutoConfigurations() {
	}

	private static Class<?> load(String name) {
		return ClassUtils.resolveClassName(name, StarterAutoConfigurations.class.getClassLoader());
	}

}
