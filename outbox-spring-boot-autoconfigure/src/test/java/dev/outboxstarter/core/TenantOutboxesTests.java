package dev.outboxstarter.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

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
import dev.outboxstarter.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The outboxes of tenants in schemas of one database (databases of one server, on MariaDB), on each
 * database the starter supports where its SQL differs (schemas that the tests leave behind are dropped
 * when they next run): where capture writes, when a tenant's table is made, and how the relay
 * shares its threads between the tenants. The relay's rounds are run by the tests, one at a time: its
 * first scheduled round would be an hour after start.
 */
class TenantOutboxesTests {

	private static final String TABLE = "outbox_tenant_tests";

	private TestDatabase database;

	private DataSource dataSource;

	private final AtomicInteger connectionsOpened = new AtomicInteger();

	private Tenants tenants;

	private final RecordingTransport transport = new RecordingTransport();

	private ApplicationContextRunner runner(TestDatabase database) {
		this.database = database;
		DataSource target = (database == TestDatabase.H2)
				? new DriverManagerDataSource("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
				: database.dataSource();
		this.dataSource = new DelegatingDataSource(target) {

			@Override
			public Connection getConnection() throws SQLException {
				TenantOutboxesTests.this.connectionsOpened.incrementAndGet();
				return super.getConnection();
			}

		};
		if (database != TestDatabase.H2) {
			database.dropTable(TABLE);
		}
		this.tenants = new Tenants(database, this.dataSource);
		this.tenants.add("acme");
		this.tenants.add("globex");
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
					OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA, StarterAutoConfigurations.METRICS))
			.withBean(DataSource.class, () -> this.dataSource)
			.withBean(DataSourceTransactionManager.class, () -> new DataSourceTransactionManager(this.dataSource))
			.withBean(OutboxTenants.class, () -> this.tenants)
			.withBean("recording", OutboxTransport.class, () -> this.transport)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("outbox.table-name=" + TABLE, "outbox.routes[java.lang.String].destination=strings",
					"outbox.routes[java.lang.String].transport=recording", "outbox.fast-path.enabled=false",
					"outbox.relay.poll-interval=1h");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfATenantsTransactionAreStoredInTheOutboxTableOfItsSchema(TestDatabase database) {
		runner(database).run((context) -> {
			publishAs(context, "acme", "acme event");
			publishAs(context, "globex", "globex event");
			publishAs(context, null, "event of no tenant");
			assertThat(payloads("acme")).containsExactly("\"acme event\"");
			assertThat(payloads("globex")).containsExactly("\"globex event\"");
			assertThat(payloads(null)).containsExactly("\"event of no tenant\"");
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void tablesOfTheTenantsListedAtStartAreMadeBeforeAnyTransaction(TestDatabase database) {
		runner(database).run((context) -> {
			assertThat(tableExists("acme")).isTrue();
			assertThat(tableExists("globex")).isTrue();
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void tenantWhoseSchemaCannotBeReachedAtStartIsLeftToTheRelay(TestDatabase database) {
		ApplicationContextRunner runner = runner(database);
		this.tenants.addWithoutSchema("hooli");
		runner.run((context) -> {
			assertThat(context).hasNotFailed();
			publishAs(context, "acme", "acme event");
			assertThat(payloads("acme")).containsExactly("\"acme event\"");
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void eventOfATenantThatIsNotListedIsRefusedAndItsTransactionRollsBack(TestDatabase database) {
		runner(database).run((context) -> {
			assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> publishAs(context, "initech", "initech event"))
				.withMessageContaining("The current tenant 'initech' is not among the tenants of the OutboxTenants bean");
			assertThat(payloads(null)).isEmpty();
		});
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void tenantAddedWhileTheApplicationRunsGetsItsTableFromTheRelaysNextRoundNotFromCapture(TestDatabase database) {
		runner(database).run((context) -> {
			TenantOutboxes outboxes = context.getBean(TenantOutboxes.class);
			outboxes.relay().round();
			this.tenants.add("initech");
			assertThatExceptionOfType(DataAccessException.class)
				.isThrownBy(() -> publishAs(context, "initech", "too early"));
			assertThat(tableExists("initech")).as("a table made by capture").isFalse();
			outboxes.relay().round();
			assertThat(tableExists("initech")).isTrue();
			publishAs(context, "initech", "initech event");
			assertThat(outboxes.relay().round()).isOne();
			assertThat(this.transport.payloads).containsExactly("\"initech event\"");
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void firstTransactionOfATenantAddedWhileTheApplicationRunsTakesNoConnectionBesideItsOwn(TestDatabase database) {
		ApplicationContextRunner runner = runner(database);
		this.tenants.add("initech");
		// Another instance, whose tenants at its start included this one, made the tenant's table.
		runner.run((context) -> assertThat(tableExists("initech")).isTrue());
		this.tenants.outboxes.removeIf((outbox) -> outbox.tenant().equals("initech"));
		runner.run((context) -> {
			this.tenants.addWithoutSchema("initech");
			this.connectionsOpened.set(0);

			publishAs(context, "initech", "initech event");

			// With a connection each, the writers of a full pool would wait for one none of them gives back.
			assertThat(this.connectionsOpened).hasValue(1);
			assertThat(payloads("initech")).containsExactly("\"initech event\"");
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void tenantWithABacklogDelaysAnotherTenantsEventsByAtMostOneBatch(TestDatabase database) {
		runner(database).withPropertyValues("outbox.relay.batch-size=10", "outbox.tenants.relay-threads=1")
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

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void tenantWhoseSchemaCannotBeReachedIsReportedAndLeftAloneWhileTheOthersArePublished(TestDatabase database) {
		runner(database).withPropertyValues("outbox.tenants.failure-backoff=1h").run((context) -> {
			publishAs(context, "acme", "acme event");
			this.tenants.addWithoutSchema("hooli");
			TenantOutboxes outboxes = context.getBean(TenantOutboxes.class);
			assertThat(outboxes.relay().round()).isOne();
			assertThat(this.transport.payloads).containsExactly("\"acme event\"");
			TenantsReading reading = context.getBean(OutboxMonitoring.class).tenants();
			assertThat(reading.tenants()).isEqualTo(3);
			assertThat(reading.failing()).containsOnlyKeys("hooli");
			assertThat(reading.failing().get("hooli")).containsIgnoringCase(this.tenants.schemaOf("hooli"));
			assertThat(context.getBean(MeterRegistry.class).get("outbox.tenants.failing").gauge().value()).isOne();
			publishAs(context, "globex", "globex event");
			outboxes.relay().round();
			assertThat(this.transport.payloads).containsExactly("\"acme event\"", "\"globex event\"");
			assertThat(context.getBean(OutboxMonitoring.class).tenants().failing()).containsOnlyKeys("hooli");
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void eventsOfEveryTenantHeldBackByABrokerOutageAreDueAsSoonAsItEnds(TestDatabase database) {
		runner(database).withPropertyValues("outbox.retry.initial-delay=1h", "outbox.retry.max-delay=1h")
			.run((context) -> {
				TenantOutboxes outboxes = context.getBean(TenantOutboxes.class);
				this.transport.down = true;
				publishAs(context, "acme", "acme during the outage");
				publishAs(context, "globex", "globex during the outage");
				outboxes.relay().round();
				assertThat(this.transport.payloads).isEmpty();
				this.transport.down = false;
				publishAs(context, "acme", "acme after the outage");
				outboxes.relay().round();
				outboxes.relay().round();
				assertThat(this.transport.payloads).containsExactlyInAnyOrder("\"acme during the outage\"",
						"\"globex during the outage\"", "\"acme after the outage\"");
			});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void backlogOfEachTenantCanBeRead(TestDatabase database) {
		runner(database).run((context) -> {
			publishAs(context, "acme", "acme event");
			OutboxMonitoring monitoring = context.getBean(OutboxMonitoring.class);
			assertThat(monitoring.readTenantBacklog("acme").pending()).isOne();
			assertThat(monitoring.readTenantBacklog("globex").pending()).isZero();
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> monitoring.readTenantBacklog("initech"))
				.withMessageContaining("No tenant 'initech'");
		});
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "H2")
	void publishingTheDueEventsForATestPublishesThoseOfEveryTenant(TestDatabase database) {
		runner(database).run((context) -> {
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

	private List<String> payloads(@Nullable String tenant) {
		String table = (tenant != null) ? this.tenants.schemaOf(tenant) + "." + TABLE : TABLE;
		return new JdbcTemplate(this.dataSource).queryForList("SELECT payload FROM " + table + " ORDER BY seq",
				String.class);
	}

	private boolean tableExists(String tenant) {
		return new JdbcTemplate(this.dataSource).queryForObject("SELECT COUNT(*) FROM information_schema.tables "
				+ "WHERE LOWER(table_schema) = LOWER(?) AND LOWER(table_name) = ?", Integer.class,
				this.tenants.schemaOf(tenant), TABLE) > 0;
	}

	/**
	 * The tenants, each in a schema made for it (a database, on MariaDB) whose name is unique to the test
	 * database, as MariaDB's databases are the server's.
	 */
	private static final class Tenants implements OutboxTenants {

		private final TestDatabase database;

		private final DataSource dataSource;

		private final List<TenantOutbox> outboxes = new CopyOnWriteArrayList<>();

		private volatile @Nullable String current;

		Tenants(TestDatabase database, DataSource dataSource) {
			this.database = database;
			this.dataSource = dataSource;
		}

		void add(String tenant) {
			JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
			String schema = schemaOf(tenant);
			if (this.database == TestDatabase.POSTGRESQL) {
				jdbc.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
				jdbc.execute("CREATE SCHEMA " + schema);
			}
			else {
				String kind = (this.database == TestDatabase.MARIADB) ? "DATABASE" : "SCHEMA";
				jdbc.execute("DROP " + kind + " IF EXISTS " + schema + ((this.database == TestDatabase.H2) ? " CASCADE" : ""));
				jdbc.execute("CREATE " + kind + " " + schema);
			}
			addWithoutSchema(tenant);
		}

		void addWithoutSchema(String tenant) {
			this.outboxes.add(TenantOutbox.inSchema(tenant, this.dataSource, schemaOf(tenant)));
		}

		String schemaOf(String tenant) {
			if (this.database == TestDatabase.H2) {
				// H2 keeps unquoted names in upper case, and its connections take a schema by its exact name.
				return "TENANT_" + tenant.toUpperCase(Locale.ROOT);
			}
			String database = this.database.url().replaceAll(".*/([^/?;]*).*", "$1").replaceAll("[^A-Za-z0-9_]", "_");
			return "tenant_" + database + "_" + tenant;
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

		private volatile boolean down;

		@Override
		public String name() {
			return "recording";
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			if (this.down) {
				return CompletableFuture.failedFuture(new IllegalStateException("The broker is down"));
			}
			this.payloads.add(message.payload());
			return CompletableFuture.completedFuture(null);
		}

		@Override
		public boolean isUnavailable(Throwable failure) {
			return failure instanceof IllegalStateException;
		}

	}

}
