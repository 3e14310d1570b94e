package dev.outboxstarter.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.schema.FlywayOutboxSchemaInitializer;
import dev.outboxstarter.internal.schema.OutboxSchemaInitializer;
import dev.outboxstarter.internal.schema.ScriptOutboxSchemaInitializer;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up of the outbox on an embedded H2 database: what is created, when it backs off, and how bad
 * settings fail with a message that names the property (values out of their range: see
 * {@link OutboxPropertiesValidationTests}).
 */
class OutboxAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				KafkaAutoConfiguration.class, OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void createsTheOutboxAndItsTableWithFlywayWhenFlywayIsPresent() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(Outbox.class)
				.hasSingleBean(OutboxCapture.class)
				.hasSingleBean(FastPathDispatcher.class)
				.hasSingleBean(OutboxRelay.class)
				.hasSingleBean(Outages.class)
				.hasBean("kafkaOutboxTransport")
				.getBean(OutboxSchemaInitializer.class)
				.isInstanceOf(FlywayOutboxSchemaInitializer.class);
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM outbox_event", Integer.class)).isZero();
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"outbox_event_schema_history\" WHERE \"version\" = '1' AND \"success\"", Integer.class)).isEqualTo(1);
		});
	}

	@Test
	void createsTheTableFromScriptsWithoutFlyway() {
		this.runner.withClassLoader(new FilteredClassLoader(Flyway.class)).run((context) -> {
			assertThat(context.getBean(OutboxSchemaInitializer.class)).isInstanceOf(ScriptOutboxSchemaInitializer.class);
			assertThat(new JdbcTemplate(context.getBean(javax.sql.DataSource.class))
				.queryForObject("SELECT COUNT(*) FROM outbox_event", Integer.class)).isZero();
		});
	}

	@Test
	void flywayModeWithoutFlywayFailsNamingTheProperty() {
		this.runner.withClassLoader(new FilteredClassLoader(Flyway.class))
			.withPropertyValues("outbox.schema.mode=flyway")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("outbox.schema.mode=flyway, but Flyway is not on the classpath"));
	}

	@Test
	void kafkaProducerThatWaitsForNoAcknowledgementFailsNamingThePropertyAndTheValueToSet() {
		this.runner.withPropertyValues("spring.kafka.producer.acks=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("the producer has acks=0")
				.hasMessageContaining("Set spring.kafka.producer.acks=all"));
	}

	@Test
	void kafkaProducerWithoutIdempotenceMakesTheOutboxSendAKeysEventsOneAtATime() {
		this.runner
			.run((context) -> assertThat(context.getBean("kafkaOutboxTransport", OutboxTransport.class).keepsKeyOrder()).isTrue());
		this.runner.withPropertyValues("spring.kafka.producer.properties.enable.idempotence=false")
			.run((context) -> assertThat(context.getBean("kafkaOutboxTransport", OutboxTransport.class).keepsKeyOrder()).isFalse());
		this.runner.withPropertyValues("spring.kafka.producer.acks=1")
			.run((context) -> assertThat(context.getBean("kafkaOutboxTransport", OutboxTransport.class).keepsKeyOrder()).isFalse());
	}

	@Test
	void payloadFormatThatNoSerializerWritesFailsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("outbox.payload-format=avro")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("outbox.payload-format 'avro' is not a payload format"));
		this.runner.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
				"outbox.routes[java.lang.String].payload-format=protobuf")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("outbox.routes[java.lang.String].payload-format 'protobuf' is not a payload format"));
	}

	@Test
	void unknownSchemaModeFailsNamingTheProperty() {
		this.runner.withPropertyValues("outbox.schema.mode=liquibase")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("outbox.schema.mode")
				.hasStackTraceContaining("liquibase"));
	}

	@Test
	void noneModeWithoutTheTableFailsNamingTheProperty() {
		this.runner.withPropertyValues("outbox.schema.mode=none")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("The outbox table 'outbox_event' does not exist and outbox.schema.mode=none"));
	}

	@Test
	void tableNameThatIsNotAPlainIdentifierFailsNamingTheProperty() {
		this.runner.withPropertyValues("outbox.table-name=outbox; DROP TABLE orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("outbox.table-name: 'outbox; DROP TABLE orders' is not a plain SQL identifier"));
	}

	@Test
	void valuesThatDoNotConvertFailNamingTheProperty() {
		this.runner.withPropertyValues("outbox.ordering=sometimes")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'outbox.ordering'"));
		this.runner.withPropertyValues("outbox.publish-timeout=soon")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'outbox.publish-timeout'"));
	}

	@Test
	void customTableNameIsUsed() {
		this.runner.withPropertyValues("outbox.table-name=domain_events").run((context) -> {
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM domain_events", Integer.class)).isZero();
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"domain_events_schema_history\" WHERE \"version\" = '1' AND \"success\"", Integer.class))
				.isEqualTo(1);
		});
	}

	@Test
	void aZeroPublishedRetentionDeletesRowsAsTheyArePublishedAndTheDefaultKeepsThem() {
		this.runner.withPropertyValues("outbox.cleanup.published-retention=0")
			.run((context) -> assertThat(statusAfterPublishing(context.getBean(OutboxStore.class),
					new JdbcTemplate(context.getBean(javax.sql.DataSource.class))))
				.isEmpty());
		this.runner.run((context) -> assertThat(statusAfterPublishing(context.getBean(OutboxStore.class),
				new JdbcTemplate(context.getBean(javax.sql.DataSource.class))))
			.containsExactly("PUBLISHED"));
	}

	private static List<String> statusAfterPublishing(OutboxStore store, JdbcTemplate jdbc) {
		CapturedEvent event = new CapturedEvent(UUID.randomUUID(), null, null, "Ping", "kafka", "pings", "k", "{}",
				Map.of());
		store.insert(List.of(event), Duration.ZERO);
		store.markPublished(List.of(event.id()));
		return jdbc.queryForList("SELECT status FROM outbox_event", String.class);
	}

	@Test
	void fastPathAndRelayCanBeSwitchedOff() {
		this.runner.withPropertyValues("outbox.fast-path.enabled=false", "outbox.relay.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(OutboxCapture.class)
				.doesNotHaveBean(FastPathDispatcher.class)
				.doesNotHaveBean(OutboxRelay.class));
	}

	@Test
	void backsOffWhenDisabled() {
		this.runner.withPropertyValues("outbox.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(Outbox.class)
				.doesNotHaveBean(OutboxCapture.class)
				.doesNotHaveBean("kafkaOutboxTransport"));
	}

	@Test
	void backsOffFromAnApplicationsOwnOutbox() {
		Outbox own = new Outbox() {

			@Override
			public void publish(Object event) {
			}

			@Override
			public void publish(String aggregateType, Object aggregateId, Object event) {
			}

			@Override
			public void publish(OutboxRoute route, Object event, Map<String, String> headers) {
			}

			@Override
			public void publish(Object event, Instant deliverAt) {
			}

			@Override
			public void publish(String aggregateType, Object aggregateId, Object event, Instant deliverAt) {
			}

		};
		this.runner.withBean(Outbox.class, () -> own).run((context) -> assertThat(context.getBean(Outbox.class)).isSameAs(own));
	}

	@Test
	void hasNoKafkaTransportWithoutKafka() {
		this.runner.withClassLoader(new FilteredClassLoader(org.springframework.kafka.core.KafkaTemplate.class))
			.run((context) -> assertThat(context).hasSingleBean(Outbox.class).doesNotHaveBean("kafkaOutboxTransport"));
	}

}
