package dev.outboxstarter.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.TenantOutbox;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.operations.TenantsReading;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The outboxes of tenants in schemas of one embedded H2 database: where capture writes, when a tenant's
 * table is made, and how the relay shares its threads between the tenants. The relay's rounds are run
 * by the tests, one at a time: its first scheduled round would be an hour after start.
 */
class TenantOutboxesTests {

	private final DataSource dataSource = new DriverManagerDataSource(
			"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");

	private final Tenants tenants = new Tenants(this.dataSource);

	private final RecordingTransport transport = new RecordingTransport();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
				OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA, StarterAutoConfigurations.METRICS))
		.withBean(DataSource.class, () -> this.dataSource)
		.withBean(DataSourceTransactionManager.class, () -> new DataSourceTransactionManager(this.dataSource))
		.withBean(OutboxTenants.class, () -> this.tenants)
		.withBean("recording", OutboxTransport.class, () -> this.transport)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
				"outbox.routes[java.lang.String].transport=recording", "outbox.fast-path.enabled=false",
				"outbox.relay.poll-interval=1h");

	TenantOutboxesTests() {
		this.tenants.add("acme", "ACME");
		this.tenants.add("globex", "GLOBEX");
	}

	@Test
	void eventsOfATenantsTransactionAreStoredInTheOutboxTableOfItsSchema() {
		this.runner.run((context) -> {
			publishAs(context, "acme", "acme event");
			publishAs(context, "globex", "globex event");
			publishAs(context, null, "event of no tenant");
			assertThat(payloads("ACME")).containsExactly("\"acme event\"");
			assertThat(payloads("GLOBEX")).containsExactly("\"globex event\"");
			assertThat(payloads("PUBLIC")).containsExactly("\"event of no tenant\"");
		});
	}

	@Test
	void tablesOfTheTenantsListedAtStartAreMadeBeforeAnyTransaction() {
		this.runner.run((context) -> {
			assertThat(tableExists("ACME")).isTrue();
			assertThat(tableExists("GLOBEX")).isTrue();
		});
	}

	@Test
	void tenantWhoseSchemaCannotBeReachedAtStartIsLeftToTheRelay() {
		this.tenants.add("hooli", "HOOLI_WAS_DROPPED");
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(tableExists("ACME")).isTrue();
			publishAs(context, "acme", "acme event");
			assertThat(payloads("ACME")).containsExactly("\"acme event\"");
		});
	}

	@Test
	void eventOfATenantThatIsNotListedIsRefusedAndItsTransactionRollsBack() {
		this.runner.run((context) -> {
			assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> publishAs(context, "initech", "initech event"))
				.withMessageContaining("The current tenant 'initech' is not among the tenants of the OutboxTenants bean");
			assertThat(payloads("PUBLIC")).isEmpty();
		});
	}

	@Test
	void tenantAddedWhileTheApplicationRunsGetsItsTableAtTheRelaysNextRoundAndItsEventsArePublished() {
		this.runner.run((context) -> {
			TenantOutboxes outboxes = context.getBean(TenantOutboxes.class);
			outboxes.relay().round();
			this.tenants.add("initech", "INITECH");
			assertThat(tableExists("INITECH")).isFalse();
			outboxes.relay().round();
			assertThat(tableExists("INITECH")).isTrue();
			publishAs(context, "initech", "initech event");
			assertThat(outboxes.relay().round()).isOne();
			assertThat(this.transport.payloads).containsExactly("\"initech event\"");
		});
	}

	@Test
	void tenantWithABacklogDelaysAnotherTenantsEventsByAtMostOneBatch() {
		this.runner.withPropertyValues("outbox.relay.batch-size=10", "outbox.tenants.relay-threads=1")
			.run((context) -> {
				for (int i = 0; i < 100; i++) {
					publishAs(context, "acme", "acme " + i);
				}
				publishAs(context, "globex", "globex event");
				assertThat(context.getBean(TenantOutboxes.class).relay().round()).isEqualTo(101);
				assertThat(this.transport.payloads).hasSize(101);
				assertThat(this.transport.payloads.indexOf("\"globex event\"")).isLessThanOrEqualTo(10);
				assertThat(this.transport.payloads.stream().filter((payload) -> payload.startsWith("\"acme")))
					.containsExactlyElementsOf(acmeEvents(100));
			});
	}

	@Test
	void tenantWhoseSchemaCannotBeReachedIsReportedAndLeftAloneWhileTheOthersArePublished() {
		this.runner.withPropertyValues("outbox.tenants.failure-backoff=1h").run((context) -> {
			publishAs(context, "acme", "acme event");
			this.tenants.add("hooli", "HOOLI_WAS_DROPPED");
			TenantOutboxes outboxes = context.getBean(TenantOutboxes.class);
			assertThat(outboxes.relay().round()).isOne();
			assertThat(this.transport.payloads).containsExactly("\"acme event\"");
			TenantsReading reading = context.getBean(OutboxMonitoring.class).tenants();
			assertThat(reading.tenants()).isEqualTo(3);
			assertThat(reading.failing()).containsOnlyKeys("hooli");
			assertThat(reading.failing().get("hooli")).contains("HOOLI_WAS_DROPPED");
			assertThat(context.getBean(MeterRegistry.class).get("outbox.tenants.failing").gauge().value()).isOne();
			publishAs(context, "globex", "globex event");
			outboxes.relay().round();
			assertThat(this.transport.payloads).containsExactly("\"acme event\"", "\"globex event\"");
			assertThat(context.getBean(OutboxMonitoring.class).tenants().failing()).containsOnlyKeys("hooli");
		});
	}

	@Test
	void backlogOfEachTenantCanBeRead() {
		this.runner.run((context) -> {
			publishAs(context, "acme", "acme event");
			OutboxMonitoring monitoring = context.getBean(OutboxMonitoring.class);
			assertThat(monitoring.readTenantBacklog("acme").pending()).isOne();
			assertThat(monitoring.readTenantBacklog("globex").pending()).isZero();
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> monitoring.readTenantBacklog("initech"))
				.withMessageContaining("No tenant 'initech'");
		});
	}

	@Test
	void publishingTheDueEventsForATestPublishesThoseOfEveryTenant() {
		this.runner.run((context) -> {
			publishAs(context, "acme", "acme event");
			publishAs(context, "globex", "globex event");
			assertThat(context.getBean(OutboxTesting.class).publishDue()).isEqualTo(2);
			assertThat(this.transport.payloads).containsExactlyInAnyOrder("\"acme event\"", "\"globex event\"");
		});
	}

	private static List<String> acmeEvents(int count) {
		List<String> events = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			events.add("\"acme " + i + "\"");
		}
		return events;
	}

	private void publishAs(AssertableApplicationContext context, @Nullable String tenant, String event) {
		this.tenants.current = tenant;
		try {
			new TransactionTemplate(context.getBean(DataSourceTransactionManager.class))
				.executeWithoutResult((status) -> context.getBean(Outbox.class).publish(event));
		}
		finally {
			this.tenants.current = null;
		}
	}

	private List<String> payloads(String schema) {
		return new JdbcTemplate(this.dataSource).queryForList("SELECT payload FROM " + schema + ".outbox_event ORDER BY seq",
				String.class);
	}

	private boolean tableExists(String schema) {
		return new JdbcTemplate(this.dataSource).queryForObject("SELECT COUNT(*) FROM information_schema.tables "
				+ "WHERE table_schema = ? AND LOWER(table_name) = 'outbox_event'", Integer.class, schema) > 0;
	}

	private static final class Tenants implements OutboxTenants {

		private final DataSource dataSource;

		private final List<TenantOutbox> outboxes = new CopyOnWriteArrayList<>();

		private volatile @Nullable String current;

		Tenants(DataSource dataSource) {
			this.dataSource = dataSource;
		}

		void add(String tenant, String schema) {
			if (!schema.endsWith("_WAS_DROPPED")) {
				new JdbcTemplate(this.dataSource).execute("CREATE SCHEMA IF NOT EXISTS " + schema);
			}
			this.outboxes.add(TenantOutbox.inSchema(tenant, this.dataSource, schema));
		}

		@Override
		public Collection<TenantOutbox> tenants() {
			return this.outboxes;
		}

		@Override
		public @Nullable String currentTenant() {
			return this.current;
		}

	}

	private static final class RecordingTransport implements OutboxTransport {

		private final List<String> payloads = new CopyOnWriteArrayList<>();

		@Override
		public String name() {
			return "recording";
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			this.payloads.add(message.payload());
			return CompletableFuture.completedFuture(null);
		}

	}

}
