package dev.outboxstarter.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.it.tenantschemas.BookingRejected;
import dev.outboxstarter.it.tenantschemas.BookingService;
import dev.outboxstarter.it.tenantschemas.CurrentTenant;
import dev.outboxstarter.it.tenantschemas.TenantSchemasTestApplication;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static dev.outboxstarter.it.tenantschemas.TenantSchemasTestApplication.TENANTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A service with a schema per tenant on one PostgreSQL database (Hibernate's schema-based
 * multi-tenancy), and an {@code OutboxTenants} bean for the same 50 tenants: each tenant's events are
 * written to the outbox table in its own schema, which the starter creates, with the business change
 * of the tenant's transaction, and delivered from there once, in order per booking, by the fast path
 * and the tenants' relay. A tenant whose schema becomes unreachable keeps its events pending while
 * the other tenants' events go out, and has them delivered once it is reachable again.
 * <p>
 * The application connects as a role of its own that is no superuser (PostgreSQL checks no privileges
 * for a superuser), through one pool of a fixed size: however many tenants there are, the role never
 * has more connections than the pool holds, which a sampler of {@code pg_stat_activity} checks for the
 * whole of each test.
 */
@ExtendWith(OutputCaptureExtension.class)
class TenantSchemasIntegrationTests {

	private static final String TOPIC = "it-tenant-schemas";

	private static final String PASSWORD = "outbox-tenant-it";

	private static final String TABLE = "outbox_event";

	private static final int BOOKINGS_PER_TENANT = 3;

	/** The revision of a change that rolls back: no event of it may ever be published. */
	private static final int ROLLED_BACK_REVISION = 99;

	private static final JsonMapper json = new JsonMapper();

	private static SingleConnectionDataSource superuser;

	private static String role;

	private static RoleConnections connections;

	private static ConfigurableApplicationContext context;

	private static TopicRecorder topic;

	@BeforeAll
	static void start() {
		TestDatabase database = TestDatabase.POSTGRESQL;
		superuser = new SingleConnectionDataSource(database.url(), database.username(), database.password(), true);
		JdbcTemplate admin = admin();
		role = "outbox_tenant_app_"
				+ admin.queryForObject("SELECT current_database()", String.class).replaceAll("[^A-Za-z0-9_]", "_");
		dropTenancy(admin);
		createTenancy(admin);
		TestKafka.createTopic(TOPIC, 3);
		connections = RoleConnections.start(role);
		context = new SpringApplicationBuilder(TenantSchemasTestApplication.class).web(WebApplicationType.NONE)
			.properties("spring.datasource.url=" + database.url(), "spring.datasource.username=" + role,
					"spring.datasource.password=" + PASSWORD, "spring.jpa.hibernate.ddl-auto=none",
					"spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers(), "test.topic=" + TOPIC,
					"outbox.table-name=" + TABLE, "outbox.cleanup.published-retention=1h",
					"outbox.relay.poll-interval=50ms", "outbox.fast-path.grace-period=200ms",
					"outbox.tenants.relay-threads=2", "outbox.tenants.failure-backoff=200ms")
			.run();
		topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC);
	}

	@AfterAll
	static void close() {
		if (context != null) {
			context.close();
		}
		if (topic != null) {
			topic.close();
		}
		if (connections != null) {
			connections.close();
		}
		if (role != null) {
			// The role is the cluster's, not only this database's.
			dropTenancy(admin());
		}
		if (superuser != null) {
			superuser.destroy();
		}
	}

	@Test
	void everyTenantsCommittedEventsAreStoredInItsOwnSchemaAndDeliveredOnceInOrderPerBooking() {
		connections.reset();
		String run = unique("ordered");
		int revisions = 4;
		List<String> rollingBack = List.of("tenant_04", "tenant_17", "tenant_33", "tenant_50");

		// Four writers, each with its share of the tenants: every booking's revisions are committed in
		// order, interleaved with the other tenants' and, across the writers, committed at once.
		int writers = 4;
		concurrently(writers, (writer) -> {
			for (int revision = 1; revision <= revisions; revision++) {
				for (int tenant = writer; tenant < TENANTS.size(); tenant += writers) {
					String id = TENANTS.get(tenant);
					for (String booking : bookings(run, id, BOOKINGS_PER_TENANT)) {
						revise(id, run, List.of(booking), revision);
						if (revision == 2 && rollingBack.contains(id)) {
							assertThatExceptionOfType(BookingRejected.class).isThrownBy(() -> CurrentTenant.run(id,
									() -> bookings().reviseThenFail(run, booking, ROLLED_BACK_REVISION)));
						}
					}
				}
			}
		});

		List<Event> expected = TENANTS.stream()
			.flatMap((tenant) -> events(run, tenant, bookings(run, tenant, BOOKINGS_PER_TENANT), 1, revisions).stream())
			.toList();
		List<Received> received = awaitReceived(run, expected.size());
		assertThat(received).extracting(TenantSchemasIntegrationTests::event)
			.containsExactlyInAnyOrderElementsOf(expected);
		assertThat(received).allSatisfy((record) -> assertThat(record.key()).isEqualTo(event(record).booking()));
		assertThat(revisionsByBooking(received)).hasSize(TENANTS.size() * BOOKINGS_PER_TENANT)
			.allSatisfy((booking, delivered) -> assertThat(delivered).as(booking)
				.isEqualTo(IntStream.rangeClosed(1, revisions).boxed().toList()));
		// The fast path publishes the tenants' events as they commit, and the relay takes over what it has
		// not published within the grace period: how they split says nothing, but none published by the
		// fast path would mean that capture did not hand it the tenants' events with their tables.
		assertThat(context.getBean(PublishedEvents.class).byFastPath()).as("events published by the fast path")
			.containsAnyElementsOf(messageIds(received));

		// Each tenant's events are in the outbox table of its own schema, which the application's role
		// created (through the starter: the test created none), and in no other table. A row is marked
		// published once the broker acknowledged it, which may be after a consumer has it.
		assertThat(tablesCreatedByTheApplication()).containsExactlyInAnyOrderElementsOf(TENANTS);
		for (String tenant : TENANTS) {
			List<Event> own = expected.stream().filter((event) -> event.tenant().equals(tenant)).toList();
			awaitRows(tenant, run, rows(own, "PUBLISHED"));
		}
		assertThat(rows(CurrentTenant.NO_TENANT, run)).as("the outbox of no tenant").isEmpty();
		for (String tenant : rollingBack) {
			String booking = bookings(run, tenant, 1).get(0);
			assertThat(CurrentTenant.as(tenant, () -> bookings().revisionOf(booking))).as(booking).isEqualTo(revisions);
		}
		assertConnectionsWithinThePool();
	}

	@Test
	void aTenantWhoseSchemaIsUnreachableKeepsItsEventsPendingWhileTheOtherTenantsAreRelayedThenGetsThemDelivered(
			CapturedOutput output) {
		connections.reset();
		String run = unique("unreachable");
		String unreachable = "tenant_07";
		List<String> own = bookings(run, unreachable, BOOKINGS_PER_TENANT);
		List<String> others = TENANTS.stream().filter((tenant) -> !tenant.equals(unreachable)).toList();
		JdbcTemplate admin = admin();
		// Without this instance's fast path every event goes out through the tenants' relay: what reaches
		// the topic is what the relay did while one of its tenants failed.
		FastPathDispatcher fastPath = context.getBean(FastPathDispatcher.class);
		fastPath.stop();
		try {
			revise(unreachable, run, own, 1);
			List<Event> before = events(run, unreachable, own, 1, 1);
			assertThat(awaitReceived(run, before.size())).extracting(TenantSchemasIntegrationTests::event)
				.containsExactlyInAnyOrderElementsOf(before);

			// The relay can no longer read the tenant's outbox, which its transactions still write to: their
			// events are pending when the whole schema becomes unreachable.
			admin.execute("REVOKE SELECT, UPDATE, DELETE ON " + unreachable + "." + TABLE + " FROM " + role);
			revise(unreachable, run, own, 2);
			revise(unreachable, run, own, 3);
			List<Event> pending = events(run, unreachable, own, 2, 3);
			admin.execute("REVOKE ALL ON SCHEMA " + unreachable + " FROM " + role);
			admin.execute("REVOKE ALL ON ALL TABLES IN SCHEMA " + unreachable + " FROM " + role);
			int outageBegan = output.getAll().length();
			assertThatExceptionOfType(DataAccessException.class).as("a change of the unreachable tenant")
				.isThrownBy(() -> revise(unreachable, run, own, 4));

			// The other tenants' changes go on meanwhile, from several writers.
			int writers = 4;
			concurrently(writers, (writer) -> {
				for (int revision = 1; revision <= 2; revision++) {
					for (int tenant = writer; tenant < others.size(); tenant += writers) {
						revise(others.get(tenant), run, bookings(run, others.get(tenant), 1), revision);
					}
				}
			});
			List<Event> othersEvents = others.stream()
				.flatMap((tenant) -> events(run, tenant, bookings(run, tenant, 1), 1, 2).stream())
				.toList();
			assertThat(awaitReceived(run, before.size() + othersEvents.size()))
				.extracting(TenantSchemasIntegrationTests::event)
				.containsExactlyInAnyOrderElementsOf(concat(before, othersEvents));

			// The relay tried the unreachable tenant during the outage and failed, so its rows stayed in its
			// table by no lack of trying: pending as they were written, neither DEAD nor gone.
			await("the relay failing on " + unreachable + " during the outage").atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> output.getAll().substring(outageBegan),
						(logged) -> logged.contains("The outbox of the tenant '" + unreachable + "' still cannot be "
								+ "relayed") && logged.contains("permission denied for schema " + unreachable));
			awaitRows(unreachable, run, concat(rows(before, "PUBLISHED"), rows(pending, "PENDING")));
			assertThat(attemptsOfPending(unreachable, run)).as("delivery attempts of the pending rows").isZero();

			grant(admin, unreachable);
			List<Received> received = awaitReceived(run, before.size() + pending.size() + othersEvents.size());
			assertThat(received).extracting(TenantSchemasIntegrationTests::event)
				.containsExactlyInAnyOrderElementsOf(concat(concat(before, pending), othersEvents));
			assertThat(revisionsByBooking(received)).allSatisfy((booking, revisions) -> assertThat(revisions)
				.as(booking)
				.isEqualTo(IntStream.rangeClosed(1, booking.startsWith(unreachable) ? 3 : 2).boxed().toList()));
			assertThat(context.getBean(PublishedEvents.class).byRelay()).as("events published by the relay")
				.containsAll(messageIds(received));
			awaitRows(unreachable, run, rows(concat(before, pending), "PUBLISHED"));
		}
		finally {
			grant(admin, unreachable);
			fastPath.start();
		}
		assertConnectionsWithinThePool();
	}

	/** Revises bookings of a tenant, each in a transaction of its own. */
	private static void revise(String tenant, String run, List<String> bookings, int revision) {
		CurrentTenant.run(tenant, () -> bookings.forEach((booking) -> bookings().revise(run, booking, revision)));
	}

	/** The events of revising bookings of a tenant from one revision to another. */
	private static List<Event> events(String run, String tenant, List<String> bookings, int from, int to) {
		return bookings.stream()
			.flatMap((booking) -> IntStream.rangeClosed(from, to)
				.mapToObj((revision) -> new Event(run, tenant, booking, revision)))
			.toList();
	}

	private static List<Row> rows(List<Event> events, String status) {
		return events.stream().map((event) -> new Row(event, status)).toList();
	}

	private static void assertConnectionsWithinThePool() {
		RoleConnections.Observed observed = connections.observed();
		System.out.println("Connections of the role " + role + ": at most " + observed.most() + " at once in "
				+ observed.samples() + " samples of pg_stat_activity");
		assertThat(observed.samples()).as("samples of pg_stat_activity").isPositive();
		assertThat(observed.most()).as("connections of the application's role at once").isPositive()
			.isLessThanOrEqualTo(TenantSchemasTestApplication.MAXIMUM_POOL_SIZE);
	}

	/**
	 * Waits until the topic holds at least {@code count} events of the run, then reads it to its end.
	 * @return every record of the run, in the order each partition delivered it
	 */
	private static List<Received> awaitReceived(String run, int count) {
		Predicate<Received> ofRun = (record) -> event(record).run().equals(run);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> topic.poll().stream().filter(ofRun).count() >= count);
		return topic.pollToEnd().stream().filter(ofRun).toList();
	}

	private static List<UUID> messageIds(List<Received> received) {
		return received.stream().map((record) -> UUID.fromString(record.header(OutboxHeaders.MESSAGE_ID))).toList();
	}

	/** The revisions received per booking (whose id starts with its tenant's), in the order received. */
	private static Map<String, List<Integer>> revisionsByBooking(List<Received> received) {
		Map<String, List<Integer>> revisions = new LinkedHashMap<>();
		for (Received record : received) {
			Event event = event(record);
			revisions.computeIfAbsent(event.booking(), (booking) -> new ArrayList<>()).add(event.revision());
		}
		return revisions;
	}

	/** The bookings of a tenant in a run: their ids start with the tenant's. */
	private static List<String> bookings(String run, String tenant, int count) {
		return IntStream.rangeClosed(1, count).mapToObj((booking) -> tenant + "-" + run + "-" + booking).toList();
	}

	/** Waits until the run's rows in a schema's outbox table are the expected ones. */
	private static void awaitRows(String schema, String run, List<Row> expected) {
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(rows(schema, run)).as("the outbox of %s", schema)
				.containsExactlyInAnyOrderElementsOf(expected));
	}

	/** The run's rows in a schema's outbox table, read by a superuser. */
	private static List<Row> rows(String schema, String run) {
		return admin().query("SELECT payload, status FROM " + schema + "." + TABLE + " WHERE payload LIKE ?",
				(rs, index) -> new Row(json.readValue(rs.getString("payload"), Event.class), rs.getString("status")),
				"%" + run + "%");
	}

	/** The delivery attempts recorded on the run's pending rows in a schema's outbox table. */
	private static int attemptsOfPending(String schema, String run) {
		return admin().queryForObject("SELECT COALESCE(SUM(attempts), 0) FROM " + schema + "." + TABLE
				+ " WHERE payload LIKE ? AND status = 'PENDING'", Integer.class, "%" + run + "%");
	}

	/** The tenants' schemas with an outbox table that the application's role owns. */
	private static List<String> tablesCreatedByTheApplication() {
		return admin().queryForList("SELECT schemaname FROM pg_tables WHERE tablename = ? AND tableowner = ? "
				+ "AND schemaname LIKE 'tenant\\_%'", String.class, TABLE, role);
	}

	/**
	 * Runs work on several threads at once and waits for all of it.
	 * @param threads how many threads; each is given its index
	 * @param work the work
	 */
	private static void concurrently(int threads, IntConsumer work) {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int thread = 0; thread < threads; thread++) {
				int index = thread;
				done.add(executor.submit(() -> work.accept(index)));
			}
			for (Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException("A writer failed", ex);
		}
		finally {
			executor.shutdownNow();
		}
	}

	/**
	 * The tenants' schemas as an application's onboarding would make them: each with the business table,
	 * not the outbox table, and usable by the application's role, which creates the outbox tables.
	 */
	private static void createTenancy(JdbcTemplate admin) {
		admin.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + PASSWORD + "'");
		admin.execute("CREATE SCHEMA " + CurrentTenant.NO_TENANT);
		admin.execute("GRANT USAGE, CREATE ON SCHEMA " + CurrentTenant.NO_TENANT + " TO " + role);
		for (String tenant : TENANTS) {
			admin.execute("CREATE SCHEMA " + tenant);
			admin.execute("CREATE TABLE " + tenant
					+ ".booking (id VARCHAR(128) PRIMARY KEY, revision INTEGER NOT NULL, version INTEGER)");
			grant(admin, tenant);
		}
	}

	private static void grant(JdbcTemplate admin, String tenant) {
		admin.execute("GRANT USAGE, CREATE ON SCHEMA " + tenant + " TO " + role);
		admin.execute("GRANT ALL ON ALL TABLES IN SCHEMA " + tenant + " TO " + role);
	}

	private static void dropTenancy(JdbcTemplate admin) {
		for (String tenant : TENANTS) {
			admin.execute("DROP SCHEMA IF EXISTS " + tenant + " CASCADE");
		}
		admin.execute("DROP SCHEMA IF EXISTS " + CurrentTenant.NO_TENANT + " CASCADE");
		Integer roles = admin.queryForObject("SELECT COUNT(*) FROM pg_roles WHERE rolname = ?", Integer.class, role);
		if (roles != null && roles > 0) {
			admin.execute("DROP OWNED BY " + role);
			admin.execute("DROP ROLE " + role);
		}
	}

	/** A superuser's connection, for what the application's role may not do or see. */
	private static JdbcTemplate admin() {
		return new JdbcTemplate(superuser);
	}

	private static <T> List<T> concat(List<T> first, List<T> second) {
		List<T> both = new ArrayList<>(first);
		both.addAll(second);
		return both;
	}

	private static Event event(Received record) {
		return json.readValue(record.value(), Event.class);
	}

	private static BookingService bookings() {
		return context.getBean(BookingService.class);
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/** The payload of a booking's event. */
	record Event(String run, String tenant, String booking, int revision) {
	}

	/** An outbox row: what it holds and its status. */
	record Row(Event event, String status) {
	}

	/**
	 * Samples, every few milliseconds on a connection of its own, how many connections a role has open
	 * on the database: the application's role is no one else's, so they are all the application's, its
	 * pool's (which names them) or any other it might open.
	 */
	static final class RoleConnections implements AutoCloseable {

		private final Connection connection;

		private final PreparedStatement count;

		private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "pg-stat-activity-sampler");
			thread.setDaemon(true);
			return thread;
		});

		private final AtomicReference<Observed> observed = new AtomicReference<>(new Observed(0, 0));

		private final AtomicInteger failures = new AtomicInteger();

		private RoleConnections(String role) throws SQLException {
			TestDatabase database = TestDatabase.POSTGRESQL;
			this.connection = DriverManager.getConnection(database.url(), database.username(), database.password());
			this.count = this.connection.prepareStatement("SELECT COUNT(*) FROM pg_stat_activity WHERE usename = ?");
			this.count.setString(1, role);
		}

		static RoleConnections start(String role) {
			try {
				RoleConnections connections = new RoleConnections(role);
				connections.sampler.scheduleWithFixedDelay(connections::sample, 0, 5, TimeUnit.MILLISECONDS);
				return connections;
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
		}

		private void sample() {
			try (ResultSet result = this.count.executeQuery()) {
				result.next();
				int open = result.getInt(1);
				this.observed
					.updateAndGet((before) -> new Observed(Math.max(before.most(), open), before.samples() + 1));
			}
			catch (SQLException ex) {
				this.failures.incrementAndGet();
			}
		}

		/** Starts a new observation. */
		void reset() {
			this.observed.set(new Observed(0, 0));
		}

		/**
		 * What the samples since the last reset found.
		 * @return the most connections at once, and the number of samples
		 */
		Observed observed() {
			assertThat(this.failures.get()).as("failed samples of pg_stat_activity").isZero();
			return this.observed.get();
		}

		@Override
		public void close() {
			this.sampler.shutdownNow();
			try {
				this.sampler.awaitTermination(5, TimeUnit.SECONDS);
				this.connection.close();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (SQLException ex) {
				// Only the sampler's own connection.
			}
		}

		record Observed(int most, int samples) {
		}

	}

}
