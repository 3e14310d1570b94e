package dev.outboxstarter.core;

import java.util.UUID;

import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A start-up the outbox refuses is reported as Spring Boot reports its own: a description of what is
 * wrong and an action, the analyzer being registered where Boot looks for analyzers.
 */
class OutboxConfigurationFailureAnalyzerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				KafkaAutoConfiguration.class, OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void refusedStartUpIsDescribedWithTheActionThatFixesIt() {
		this.runner.withPropertyValues("spring.kafka.producer.acks=0").run((context) -> {
			FailureAnalysis analysis = registeredAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).startsWith("The outbox's Kafka transport needs the broker")
				.contains("the producer has acks=0");
			assertThat(analysis.getAction()).startsWith("Set spring.kafka.producer.acks=all");
		});
	}

	@Test
	void otherStartUpFailuresAreLeftToBootsAnalyzers() {
		assertThat(registeredAnalyzer().analyze(new IllegalStateException("not the outbox's"))).isNull();
	}

	private static FailureAnalyzer registeredAnalyzer() {
		// Some of Boot's analyzers need arguments that only its start-up supplies: they are skipped here.
		return SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, FailureHandler.handleMessage((message, failure) -> {
			}))
			.stream()
			.filter(OutboxConfigurationFailureAnalyzer.class::isInstance)
			.findFirst()
			.orElseThrow(() -> new AssertionError("OutboxConfigurationFailureAnalyzer is not in spring.factories"));
	}

}
