package dev.outboxstarter.core;

import java.util.List;
import java.util.UUID;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code outbox.*} setting with a rule fails start-up when it breaks it, with a message that
 * names the property, the value it was given and what it must be; the values at the edges of each
 * rule start.
 */
class OutboxPropertiesValidationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				KafkaAutoConfiguration.class, OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA,
				OutboxInboxAutoConfiguration.class, StarterAutoConfigurations.HEALTH))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			outbox.max-payload-size=0B                 | outbox.max-payload-size=0B is invalid: it must be positive, e.g. 1MB
			outbox.default-transport=                  | outbox.default-transport= is invalid: it must name a transport, e.g. kafka
			outbox.publish-timeout=0s                  | outbox.publish-timeout=0s is invalid: it must be at least 1ms
			outbox.shutdown-timeout=-1s                | outbox.shutdown-timeout=-1s is invalid: it must be at least 1ms
			outbox.fast-path.grace-period=500us        | outbox.fast-path.grace-period=500us is invalid: it must be at least 1ms
			outbox.fast-path.queue-capacity=0          | outbox.fast-path.queue-capacity=0 is invalid: it must be between 1 and 1000000
			outbox.fast-path.queue-capacity=2000000000 | outbox.fast-path.queue-capacity=2000000000 is invalid: it must be between 1 and 1000000
			outbox.fast-path.batch-size=5001           | outbox.fast-path.batch-size=5001 is invalid: it must be between 1 and 5000
			outbox.fast-path.threads=0                 | outbox.fast-path.threads=0 is invalid: it must be between 1 and 16
			outbox.relay.poll-interval=0ms             | outbox.relay.poll-interval=0s is invalid: it must be at least 1ms
			outbox.relay.batch-size=0                  | outbox.relay.batch-size=0 is invalid: it must be between 1 and 5000
			outbox.retry.initial-delay=-2m             | outbox.retry.initial-delay=-2m is invalid: it must be at least 1ms
			outbox.retry.multiplier=0.5                | outbox.retry.multiplier=0.5 is invalid: it must be a finite number of at least 1
			outbox.retry.multiplier=NaN                | outbox.retry.multiplier=NaN is invalid: it must be a finite number of at least 1
			outbox.retry.max-delay=0s                  | outbox.retry.max-delay=0s is invalid: it must be at least 1ms
			outbox.retry.jitter=1                      | outbox.retry.jitter=1.0 is invalid: it must be at least 0 and less than 1
			outbox.retry.jitter=-0.1                   | outbox.retry.jitter=-0.1 is invalid: it must be at least 0 and less than 1
			outbox.retry.max-attempts=0                | outbox.retry.max-attempts=0 is invalid: it must be at least 1
			outbox.cleanup.published-retention=-1d     | outbox.cleanup.published-retention=-1d is invalid: it must not be negative
			outbox.cleanup.dead-retention=-1h          | outbox.cleanup.dead-retention=-1h is invalid: it must not be negative
			outbox.cleanup.interval=0s                 | outbox.cleanup.interval=0s is invalid: it must be at least 1ms
			outbox.cleanup.batch-size=10001            | outbox.cleanup.batch-size=10001 is invalid: it must be between 1 and 10000
			outbox.backlog.refresh-interval=0s         | outbox.backlog.refresh-interval=0s is invalid: it must be at least 1ms
			outbox.health.max-oldest-pending-age=-5s   | outbox.health.max-oldest-pending-age=-5s is invalid: it must be at least 1ms
			outbox.health.max-time-since-relay-run=0s  | outbox.health.max-time-since-relay-run=0s is invalid: it must be at least 1ms
			outbox.health.max-time-since-relay-run=500ms | outbox.health.max-time-since-relay-run=500ms is invalid: it must be longer than outbox.relay.poll-interval (1s)
			outbox.health.max-dead-events=-1           | outbox.health.max-dead-events=-1 is invalid: it must not be negative
			outbox.inbox.retention=0s                  | outbox.inbox.retention=0s is invalid: it must be at least 1ms
			outbox.inbox.cleanup-interval=0s           | outbox.inbox.cleanup-interval=0s is invalid: it must be at least 1ms
			outbox.inbox.cleanup-batch-size=0          | outbox.inbox.cleanup-batch-size=0 is invalid: it must be between 1 and 10000
			outbox.table-name=outbox-event             | outbox.table-name: 'outbox-event' is not a plain SQL identifier
			outbox.inbox.table-name=1inbox             | outbox.inbox.table-name: '1inbox' is not a plain SQL identifier
			""")
	void invalidValueFailsStartUpNamingThePropertyItsValueAndWhatItMustBe(String setting, String message) {
		this.runner.withPropertyValues(setting)
			.run((context) -> assertThat(context).hasFailed().getFailure().rootCause().hasMessageStartingWith(message));
	}

	@Test
	void queueCapacityLessThanTheFastPathThreadsFailsStartUpNamingBoth() {
		this.runner.withPropertyValues("outbox.fast-path.threads=4", "outbox.fast-path.queue-capacity=3")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("outbox.fast-path.queue-capacity=3 is invalid: it must be between 4 and 1000000"));
	}

	@Test
	void relayRunThresholdNoLongerThanThePollIntervalFailsStartUpWithAFailureAnalysisNamingBoth() {
		this.runner.withPropertyValues("outbox.relay.poll-interval=30s", "outbox.health.max-time-since-relay-run=30s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageStartingWith("outbox.health.max-time-since-relay-run=30s is invalid: it must be longer than "
						+ "outbox.relay.poll-interval (30s), or the health indicator is DOWN between two polls"));
	}

	@Test
	void valuesAtTheEdgeOfEachRuleStart() {
		this.runner
			.withPropertyValues("outbox.max-payload-size=1B", "outbox.publish-timeout=1ms", "outbox.shutdown-timeout=1ms",
					"outbox.fast-path.grace-period=1ms", "outbox.fast-path.queue-capacity=16",
					"outbox.fast-path.batch-size=5000", "outbox.fast-path.threads=16", "outbox.relay.poll-interval=1ms",
					"outbox.relay.batch-size=1", "outbox.retry.initial-delay=1ms", "outbox.retry.multiplier=1",
					"outbox.retry.max-delay=1ms", "outbox.retry.jitter=0.99", "outbox.retry.max-attempts=1",
					"outbox.cleanup.published-retention=0s", "outbox.cleanup.dead-retention=0s",
					"outbox.cleanup.interval=1ms", "outbox.cleanup.batch-size=10000", "outbox.backlog.refresh-interval=1ms",
					"outbox.health.max-oldest-pending-age=1ms", "outbox.health.max-time-since-relay-run=2ms",
					"outbox.health.max-dead-events=0", "outbox.inbox.retention=1ms", "outbox.inbox.cleanup-interval=1ms",
					"outbox.inbox.cleanup-batch-size=1", "outbox.relay.enabled=false", "outbox.fast-path.enabled=false",
					"outbox.cleanup.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void routeOfAClassThatDoesNotExistFailsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("outbox.routes[com.acme.billing.InvoiceIsued].destination=invoices")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("outbox.routes[com.acme.billing.InvoiceIsued] names no class on the classpath"));
	}

	@Test
	void routeWrittenWithoutBracketsFailsStartUpInsteadOfNeverMatching() {
		this.runner.withPropertyValues("outbox.routes.com.acme.billing.InvoiceIssued.destination=invoices")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("outbox.routes.com.acme.billing.InvoiceIssued.destination is not a route setting")
				.hasMessageContaining("e.g. outbox.routes[com.acme.billing.InvoiceIssued].destination"));
	}

	@Test
	void routeWithADelayStarts() {
		this.runner
			.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
					"outbox.routes[java.lang.String].delay=15m", "outbox.routes[java.lang.String].delay-holds-key=true")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void routeWithANegativeDelayFailsStartUpNamingTheProperty() {
		this.runner
			.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
					"outbox.routes[java.lang.String].delay=-1m")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("outbox.routes[java.lang.String].delay is PT-1M, a negative delay"));
	}

	@Test
	void routeWithADelayThatIsNotADurationFailsStartUpNamingTheProperty() {
		this.runner
			.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
					"outbox.routes[java.lang.String].delay=soon")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'outbox.routes[java.lang.String].delay'")
				.hasStackTraceContaining("'soon' is not a valid duration"));
	}

	@Test
	void routeAttributesInEveryFormRelaxedBindingAcceptsStart() {
		this.runner
			.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
					"outbox.routes[java.lang.String].eventType=string", "outbox.routes[java.lang.Integer].event-type=int",
					"outbox.routes[java.lang.Integer].DESTINATION=ints")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void messageFormatThatDoesNotExistFailsStartUpNamingTheValidOnes() {
		this.runner.withPropertyValues("outbox.message-format=xml")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'outbox.message-format'")
				.rootCause()
				.hasMessageContaining("xml"));
	}

	@Test
	void emptyOrMalformedCloudEventsSourceFailsStartUpNamingTheProperty() {
		for (String source : List.of("", "not a uri")) {
			this.runner.withPropertyValues("outbox.cloudevents.source=" + source)
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.rootCause()
					.hasMessageStartingWith("outbox.cloudevents.source=" + source + " is invalid: it must be a non-empty "
							+ "URI-reference, e.g. /orders"));
		}
	}

	@Test
	void cloudEventsByDefaultWithoutASourceFailsStartUpAndTheApplicationNameIsOne() {
		this.runner.withPropertyValues("outbox.message-format=cloudevents")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("outbox.message-format=cloudevents needs a CloudEvents source"));
		this.runner.withPropertyValues("outbox.message-format=cloud-events", "spring.application.name=orders service")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void routeAttributeThatDoesNotExistFailsStartUpInsteadOfBeingIgnored() {
		this.runner.withPropertyValues("outbox.routes[java.lang.String].topic=invoices")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("outbox.routes[java.lang.String].topic is not a route setting"));
	}

}
