package dev.outboxstarter.core;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.housekeeping.BacklogMonitor;
import dev.outboxstarter.internal.housekeeping.OutboxCleanup;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import dev.outboxstarter.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code outbox.relay.mode=log}: the instance captures every event in the business transaction and
 * leaves the publishing to Debezium, reading the database log. It runs no fast path, relay or backlog
 * reading, keeps no row, and says which mode runs in its health and metrics.
 */
class LogRelayModeAutoConfigurationTests {

	private static final String TABLE = "outbox_log_mode_config";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
				JacksonAutoConfiguration.class, KafkaAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, OutboxAutoConfiguration.class,
				StarterAutoConfigurations.KAFKA, StarterAutoConfigurations.LOCAL,
				StarterAutoConfigurations.METRICS, StarterAutoConfigurations.HEALTH))
		.withPropertyValues(TestDatabase.POSTGRESQL.properties())
		// Nothing is sent in log mode: the producer never connects.
		.withPropertyValues("outbox.table-name=" + TABLE, "spring.kafka.bootstrap-servers=127.0.0.1:9");

	@AfterAll
	static void dropTable() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Test
	void logModeRunsNeitherFastPathNorRelayNorBacklogReadingButKeepsHealthAndMeters() {
		this.runner.withPropertyValues("outbox.relay.mode=log").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(FastPathDispatcher.class)
				.doesNotHaveBean(OutboxRelay.class)
				.doesNotHaveBean(BacklogMonitor.class)
				.hasSingleBean(OutboxCleanup.class)
				.hasBean("outboxHealthIndicator");
			Health health = context.getBean("outboxHealthIndicator", HealthIndicator.class).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("relayMode", "log").doesNotContainKey("pending");
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("outbox.relay.mode").tag("mode", "log").gauge().value()).isEqualTo(1);
			assertThat(registry.find("outbox.backlog.pending").gauge()).isNull();
		});
	}

	@Test
	void pollingModeIsTheDefaultAndSaysSo() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(FastPathDispatcher.class)
				.hasSingleBean(OutboxRelay.class)
				.hasSingleBean(BacklogMonitor.class);
			assertThat(context.getBean("outboxHealthIndicator", HealthIndicator.class).health(true).getDetails())
				.containsEntry("relayMode", "polling");
			assertThat(context.getBean(MeterRegistry.class).get("outbox.relay.mode").tag("mode", "polling").gauge().value())
				.isEqualTo(1);
		});
	}

	@Test
	void logModeCommitsTheRowsToTheLogButLeavesNoneInTheTable() {
		this.runner.withPropertyValues("outbox.relay.mode=log").run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());
			long walBefore = jdbc.queryForObject("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", Long.class);
			new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
				.executeWithoutResult((status) -> {
					outbox.publish("Order", "o-1", new LogModePing("a"));
					outbox.publish("Order", "o-1", new LogModePing("b"));
				});
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE, Long.class)).isZero();
			long walAfter = jdbc.queryForObject("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", Long.class);
			assertThat(walAfter).isGreaterThan(walBefore);
		});
	}

	@Test
	void logModeRefusesEventsRoutedToATransportOtherThanKafka() {
		this.runner.withPropertyValues("outbox.relay.mode=log").run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			assertThatThrownBy(() -> new TransactionTemplate(
					context.getBean(PlatformTransactionManager.class))
				.executeWithoutResult((status) -> outbox.publish(new LocalPing("x"))))
				.isInstanceOf(OutboxCaptureException.class)
				.hasMessageContaining("transport 'local'")
				.hasMessageContaining("available: kafka")
				.hasMessageContaining("outbox.relay.mode=log publishes to Kafka only");
		});
	}

	@Test
	void logModeRefusesAnEventAskedToBePublishedLaterWhenItIsRaised() {
		this.runner.withPropertyValues("outbox.relay.mode=log").run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).executeWithoutResult((status) -> {
				outbox.publish(new LogModePing("at once"));
				assertThatThrownBy(() -> outbox.publish(new LogModePing("later"), Instant.now().plus(Duration.ofHours(1))))
					.isInstanceOf(OutboxCaptureException.class)
					.hasMessageContaining("Event 'LogModePing' to log-mode-pings is delayed")
					.hasMessageContaining("outbox.relay.mode=polling");
				status.setRollbackOnly();
			});
		});
	}

	@Test
	void logModeRefusesAnEventDelayedByItsAnnotationWhenItIsRaised() {
		this.runner.withPropertyValues("outbox.relay.mode=log").run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).executeWithoutResult((status) -> {
				assertThatThrownBy(() -> outbox.publish(new DelayedLogModePing("later")))
					.isInstanceOf(OutboxCaptureException.class)
					.hasMessageContaining("Event 'DelayedLogModePing' to log-mode-pings is delayed")
					.hasMessageContaining("outbox.relay.mode=polling");
				status.setRollbackOnly();
			});
		});
	}

	@Test
	void logModePublishesAtOnceAnEventAskedToBePublishedAtATimeThatHasPassed() {
		this.runner.withPropertyValues("outbox.relay.mode=log").run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).executeWithoutResult(
					(status) -> outbox.publish(new LogModePing("past"), Instant.now().minus(Duration.ofHours(1))));
		});
	}

	@Test
	void logModeRefusesAConfiguredRouteDelayAtStartUpNamingTheProperty() {
		String property = "outbox.routes[" + LogModePing.class.getName() + "]";
		this.runner.withPropertyValues("outbox.relay.mode=log", property + ".delay=5m")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining(property + ".delay is set")
				.hasMessageContaining("outbox.relay.mode=log publishes every event as it is written")
				.hasMessageContaining("Set outbox.relay.mode=polling for delayed delivery, or remove " + property
						+ ".delay"));
	}

	@Test
	void logModeOnH2IsRefusedAtStartUpNamingTheProperty() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
					OutboxAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"outbox.relay.mode=log")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("outbox.relay.mode=log")
				.hasMessageContaining("H2")
				.hasMessageContaining("set outbox.relay.mode=polling"));
	}

	@OutboxEvent(destination = "log-mode-pings")
	record LogModePing(String value) {
	}

	@OutboxEvent(destination = "log-mode-pings", delay = "1h")
	record DelayedLogModePing(String value) {
	}

	@OutboxEvent(destination = "pings", transport = "local")
	record LocalPing(String value) {
	}

}
