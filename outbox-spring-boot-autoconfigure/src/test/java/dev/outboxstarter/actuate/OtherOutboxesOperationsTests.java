package dev.outboxstarter.actuate;

import java.time.Duration;
import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.actuate.OutboxEndpoint.Summary;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import dev.outboxstarter.testsupport.TwoEmbeddedDataSources;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The health indicator and the endpoint with an outbox on a second data source, two embedded H2
 * databases: the other outbox is checked and shown by name, a problem of its own makes the outbox
 * {@code DOWN}, and the endpoint reads it when asked for it by name. Delivery is off, so what capture
 * writes stays pending.
 */
class OtherOutboxesOperationsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, EndpointAutoConfiguration.class,
				OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA,
				OutboxHealthContributorAutoConfiguration.class, OutboxValuesVisibilityAutoConfiguration.class,
				OutboxEndpointAutoConfiguration.class))
		.withUserConfiguration(TwoEmbeddedDataSources.class)
		.withPropertyValues("outbox.routes[java.lang.String].destination=strings", "outbox.fast-path.enabled=false",
				"outbox.relay.enabled=false", "outbox.health.max-dead-events=0", "outbox.backlog.refresh-interval=50ms",
				"management.endpoints.web.exposure.include=outbox");

	@Test
	void healthShowsTheOtherOutboxByNameAndIsDownWhenItHasAProblem() {
		this.runner.run((context) -> {
			Health healthy = await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> health(context), (health) -> otherOutbox(health).containsKey("dead"));
			assertThat(healthy.getStatus()).isEqualTo(Status.UP);
			assertThat(otherOutbox(healthy)).containsEntry("status", "UP").containsEntry("dead", 0L);
			publishIn(context, "billingTransactionManager", "billing event");
			new JdbcTemplate(context.getBean("billingDataSource", DataSource.class))
				.update("UPDATE outbox_event SET status = 'DEAD'");
			Health unhealthy = await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> health(context), (health) -> health.getStatus().equals(Status.DOWN));
			assertThat(unhealthy.getStatus()).isEqualTo(Status.DOWN);
			assertThat(otherOutbox(unhealthy)).containsEntry("status", "DOWN").containsEntry("dead", 1L);
			assertThat(unhealthy.getDetails().get("problems")).asString()
				.contains("outbox 'billingDataSource': 1 DEAD events, more than outbox.health.max-dead-events (0)");
		});
	}

	@Test
	void endpointReadsAnOtherOutboxByNameAndRefusesAnUnknownOne() {
		this.runner.run((context) -> {
			publishIn(context, "billingTransactionManager", "billing event");
			OutboxEndpoint endpoint = context.getBean(OutboxEndpoint.class);
			Summary primary = endpoint.summary(null, null);
			assertThat(primary.outbox()).isEqualTo("dataSource");
			assertThat(primary.outboxes()).containsExactly("dataSource", "billingDataSource");
			assertThat(primary.pending()).isZero();
			Summary billing = endpoint.summary("billingDataSource", null);
			assertThat(billing.outbox()).isEqualTo("billingDataSource");
			assertThat(billing.pending()).isOne();
			assertThat(endpoint.events("pending", null, null, "billingDataSource", SecurityContext.NONE).events())
				.singleElement()
				.satisfies((event) -> assertThat(event.eventType()).isEqualTo("String"));
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.summary("invoices", null))
				.withMessageContaining("'invoices' is not an outbox: use one of [dataSource, billingDataSource]");
		});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> otherOutbox(Health health) {
		Map<String, Object> others = (Map<String, Object>) health.getDetails().get("otherOutboxes");
		return (Map<String, Object>) others.get("billingDataSource");
	}

	private static Health health(AssertableApplicationContext context) {
		return context.getBean(OutboxHealthIndicator.class).health(true);
	}

	private static void publishIn(AssertableApplicationContext context, String transactionManager, String event) {
		new TransactionTemplate(context.getBean(transactionManager, PlatformTransactionManager.class))
			.executeWithoutResult((status) -> context.getBean(Outbox.class).publish(event));
	}

}
