package dev.outboxstarter.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import dev.outboxstarter.faults.FaultLog.Commit;
import dev.outboxstarter.faults.FaultLog.Fault;
import dev.outboxstarter.faults.FaultVerification.Row;
import dev.outboxstarter.testsupport.FaultClassPath;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TestDatabase;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fault suite: three instances of {@link FaultApplication}, each a JVM process, commit counter
 * increments (10% of the transactions rolled back on purpose) against a real database and a real
 * Kafka broker process, while the broker is stopped twice, one instance is killed with SIGKILL and
 * restarted, and every database connection of another is terminated. A consumer then reads the topic
 * from the beginning: no committed event is missing, nothing of a rolled-back transaction arrives,
 * each key's first deliveries are in commit order, and duplicates are counted. One poison event ends
 * DEAD and its key's later events are delivered. A run without faults has no duplicates at all.
 * <p>
 * The faulty run has two tenants ({@link FaultTenants}), each with a schema of its own (a database of
 * the same server, on MariaDB): a third of the transactions run as tenant {@code a}, a third as
 * {@code b} and a third as none, each incrementing a counter in its own schema, so the events of one
 * run go to three outbox tables, the primary one and each tenant's, which the outbox makes in the
 * tenants' schemas and relays with its tenant relay, under the same faults. A key is a tenant's: the
 * order is kept per tenant and key, and the poison event is tenant {@code b}'s. The calm run has no
 * tenants.
 */
class FaultSuiteTests {

	private static final int KEYS = 200;

	/** With tenants: keys of each tenant, and of no tenant, so that all keys see about as many events. */
	private static final int KEYS_PER_TENANT = 100;

	private static final List<String> TENANTS = List.of("a", "b");

	private static final String POISON_TENANT = "b";

	private static final int POISON_KEY = 7;

	private static final int MAX_ATTEMPTS = 10;

	private static final Duration BROKER_DOWN = Duration.ofSeconds(5);

	private static KafkaBrokerProcess broker;

	@BeforeAll
	static void startBroker() {
		// Instances started later use a copy of the compiled classes, immune to a concurrent rebuild.
		FaultClassPath.snapshot();
		Path log = Path.of("target", "faults", "broker.log");
		try {
			Files.deleteIfExists(log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		broker = KafkaBrokerProcess.start(log);
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.close();
		}
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void everyCommittedEventArrivesInOrderPerKeyDespiteBrokerOutagesCrashesAndLostConnections(TestDatabase database) {
		Run run = new Run(database, "faults", 20_000, 250, true, TENANTS);
		try {
			run.start(POISON_KEY);
			run.awaitProgress(0.15);
			run.brokerOutage("broker outage 1");
			run.awaitProgress(0.40);
			run.killAndRestart("i2");
			run.awaitProgress(0.55);
			run.terminateConnections("i3");
			run.awaitProgress(0.70);
			run.brokerOutage("broker outage 2");
			FaultVerification verification = run.finish();

			assertThat(run.log.faults()).hasSize(4);
			run.assertCommitsDuringBrokerOutages();
			List<Row> poison = verification.rowsOfType(Poison.TYPE);
			assertThat(poison).as("poison rows").hasSize(1);
			Row dead = poison.get(0);
			assertThat(dead.tenant()).as("tenant of the outbox the poison is in").isEqualTo(run.poisonTenant());
			assertThat(dead.status()).isEqualTo("DEAD");
			// A record too large is refused in a way no retry can get past: DEAD at its first refusal,
			// not after MAX_ATTEMPTS of them (attempts that found the broker down never make it DEAD).
			assertThat(dead.attempts()).isLessThan(MAX_ATTEMPTS);
			assertThat(dead.lastError()).contains("RecordTooLargeException");
			System.out.println("[" + run.name + "] poison's last error: " + dead.lastError());
			List<Row> afterPoison = verification.committed.values()
				.stream()
				.filter((row) -> Objects.equals(row.tenant(), dead.tenant()) && row.payloadKey() == POISON_KEY
						&& row.seq() > dead.seq())
				.toList();
			System.out.println("[" + run.name + "] poison " + dead + " in the outbox of "
					+ FaultVerification.describe(dead.tenant()) + "; later events of its key: "
					+ afterPoison.size() + ", delivered: "
					+ afterPoison.stream().filter((row) -> verification.receivedIds.contains(row.id())).count());
			assertThat(afterPoison).as("later events of the poison's key").isNotEmpty();
			assertThat(afterPoison).allMatch((row) -> verification.receivedIds.contains(row.id()));

			// The consumer side: through the inbox, the delivered duplicates have no second effect.
			FaultInboxConsumer.Outcome consumed = FaultInboxConsumer.process(database, verification.messages);
			System.out.println("[" + run.name + "] inbox consumer (2 instances, every delivered message each): "
					+ consumed.effects() + " effects for " + verification.committed.size() + " committed events; "
					+ consumed.duplicatesSkipped() + " duplicates skipped of " + 2 * verification.messages.size()
					+ " deliveries");
			assertThat(consumed.effects()).as("consumer-side effects").isEqualTo(verification.committed.size());
			assertThat(consumed.distinctEffects()).isEqualTo(verification.committed.size());
			assertThat(consumed.duplicatesSkipped())
				.isEqualTo(2 * verification.messages.size() - verification.committed.size());
		}
		finally {
			run.close();
		}
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void withoutFaultsEveryEventArrivesExactlyOnce(TestDatabase database) {
		Run run = new Run(database, "calm", 6_000, 0, false, List.of());
		try {
			run.start(-1);
			FaultVerification verification = run.finish();
			assertThat(verification.duplicates).as("duplicates without faults").isEmpty();
			assertThat(verification.rowsOfType(Poison.TYPE)).isEmpty();
		}
		finally {
			run.close();
		}
	}

	private record Outage(String description, Instant down, Instant up) {

		@Override
		public String toString() {
			return this.description + " " + this.down + " .. " + this.up;
		}

	}

	/**
	 * One run: its instances, topic, outbox tables (the primary one and each tenant's) and log.
	 */
	private static final class Run {

		private final FaultDatabase database;

		private final String name;

		private final int events;

		private final int rate;

		private final String topic;

		private final String table;

		private final List<String> tenants;

		private final int keys;

		/** The primary outbox, then each tenant's; known once the database is prepared. */
		private final List<FaultVerification.Outbox> outboxes = new ArrayList<>();

		private final Path directory;

		private final FaultLog log = new FaultLog();

		private final List<FaultInstanceProcess> instances = new ArrayList<>();

		private final List<Outage> outages = new ArrayList<>();

		private long startNanos;

		private long lastSample;

		/**
		 * Whether faults will be injected. Such a run uses short broker timeouts, so that outages are
		 * noticed at once; a calm run keeps the defaults' margin, as production would, since a timeout
		 * on a merely slow acknowledgement (e.g. while three JVMs start on two cores) means a redelivery.
		 */
		private final boolean injectsFaults;

		Run(TestDatabase database, String scenario, int events, int rate, boolean injectsFaults,
				List<String> tenants) {
			this.injectsFaults = injectsFaults;
			this.database = new FaultDatabase(database);
			this.tenants = List.copyOf(tenants);
			this.keys = tenants.isEmpty() ? KEYS : KEYS_PER_TENANT;
			this.name = scenario + "-" + database.name().toLowerCase() + (tenants.isEmpty() ? "" : "-tenants");
			this.events = events;
			this.rate = rate;
			this.topic = "fault-" + this.name + "-" + System.currentTimeMillis();
			this.table = "outbox_fault_" + scenario;
			this.directory = Path.of("target", "faults", this.name);
			try {
				Files.createDirectories(this.directory);
				for (String instance : List.of("i1", "i2", "i3")) {
					Files.deleteIfExists(this.directory.resolve(instance + ".log"));
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		void start(int poisonKey) {
			this.startNanos = System.nanoTime();
			List<String> names = List.of("i1", "i2", "i3");
			this.database.prepare(this.table, this.keys, names, this.tenants);
			this.outboxes.add(new FaultVerification.Outbox(null, this.table, Counter.TABLE));
			List<String> tenantSchemas = new ArrayList<>();
			for (String tenant : this.tenants) {
				String schema = this.database.tenantSchema(tenant);
				tenantSchemas.add(tenant + ":" + schema);
				this.outboxes.add(new FaultVerification.Outbox(tenant, schema + "." + this.table,
						schema + "." + Counter.TABLE));
			}
			broker.createTopic(this.topic, 3);
			for (int i = 0; i < names.size(); i++) {
				String instance = names.get(i);
				int share = this.events / names.size() + ((i < this.events % names.size()) ? 1 : 0);
				List<String> arguments = new ArrayList<>(this.database.properties(instance));
				if (!this.tenants.isEmpty()) {
					arguments.addAll(List.of("fault.tenants=" + String.join(",", tenantSchemas),
							"fault.poison-tenant=" + poisonTenant()));
				}
				arguments.addAll(List.of("fault.instance=" + instance, "fault.share=" + share,
						"fault.keys=" + this.keys, "fault.rate=" + this.rate, "fault.threads=2", "fault.topic=" + this.topic,
						"fault.poison-key=" + ((i == 0) ? poisonKey : -1), "outbox.table-name=" + this.table,
						"outbox.fast-path.grace-period=2s",
						// i3 publishes with two fast-path threads, i1 and i2 with the default one.
						"outbox.fast-path.threads=" + ((i == 2) ? 2 : 1),
						"outbox.publish-timeout=" + (this.injectsFaults ? "2s" : "10s"),
						"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=200ms",
						"outbox.retry.max-delay=1s", "outbox.retry.max-attempts=" + MAX_ATTEMPTS,
						// With tenants, the tenant relay's threads take connections of the pool too.
						"spring.datasource.hikari.maximum-pool-size=" + (this.tenants.isEmpty() ? 6 : 8),
						"spring.jpa.hibernate.ddl-auto=none", "spring.main.banner-mode=off", "logging.level.root=WARN",
						"spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
						"spring.kafka.producer.properties.max.request.size=150000",
						"spring.kafka.producer.properties.max.block.ms=" + (this.injectsFaults ? 1000 : 10000),
						"spring.kafka.producer.properties.reconnect.backoff.max.ms=200"));
				this.instances.add(new FaultInstanceProcess(instance, arguments,
						this.directory.resolve(instance + ".log"), this.log));
			}
			// The first creates the outbox table (Flyway), and each tenant's in its schema, as it starts,
			// before any transaction; then the others start together.
			this.instances.get(0).start();
			this.instances.get(0).awaitReady();
			for (String tenant : this.tenants) {
				assertThat(this.database.tableExists(this.database.tenantSchema(tenant), this.table))
					.as("outbox table of tenant " + tenant + " once i1 has started")
					.isTrue();
			}
			this.instances.subList(1, this.instances.size()).forEach(FaultInstanceProcess::start);
			this.instances.subList(1, this.instances.size()).forEach(FaultInstanceProcess::awaitReady);
			System.out.println("[" + this.name + "] instances ready after " + elapsed());
		}

		void awaitProgress(double fraction) {
			int target = (int) (this.events * fraction);
			awaitCondition("commits to reach " + target, Duration.ofSeconds(180), () -> this.log.committed() >= target);
		}

		void brokerOutage(String description) {
			Fault fault = this.log.fault(description);
			broker.stop();
			Instant down = Instant.now();
			int before = this.log.committed();
			// The broker stays down for BROKER_DOWN (a bounded pause through Awaitility's pollDelay), and
			// at least until business transactions have committed meanwhile.
			await(description).pollDelay(BROKER_DOWN)
				.atMost(BROKER_DOWN.plusSeconds(30))
				.until(() -> this.log.committed() > before);
			Instant up = Instant.now();
			broker.startAgain();
			fault.end("down " + down + " .. " + up + ", back at " + Instant.now());
			this.outages.add(new Outage(description, down, up));
			System.out.println("[" + this.name + "] " + fault);
		}

		void killAndRestart(String name) {
			FaultInstanceProcess instance = instance(name);
			boolean midBatch;
			try {
				await(name + " publishing a batch").atMost(Duration.ofSeconds(5))
					.pollInterval(Duration.ofMillis(20))
					.until(() -> this.database.isPublishing(name, tables()));
				midBatch = true;
			}
			catch (ConditionTimeoutException ex) {
				midBatch = false;
			}
			Fault fault = this.log.fault("SIGKILL " + name + " (pid " + instance.pid() + ") "
					+ (midBatch ? "while it held a claimed batch" : "(no claimed batch seen within 5 s)")
					+ " and restart");
			long pendingOfInstance = 0;
			for (String table : tables()) {
				pendingOfInstance += this.database.jdbc()
					.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE status = 'PENDING' AND payload LIKE ?",
							Long.class, "%\"txId\":\"" + name + "-%");
			}
			instance.kill();
			instance.start();
			instance.awaitReady();
			fault.end(name + " had " + pendingOfInstance + " pending rows just before the kill; restarted at "
					+ Instant.now());
			System.out.println("[" + this.name + "] " + fault);
		}

		void terminateConnections(String name) {
			Fault fault = this.log.fault("terminate all database connections of " + name);
			int terminated = this.database.terminateConnections(name);
			fault.end(terminated + " connections terminated");
			System.out.println("[" + this.name + "] " + fault);
			assertThat(terminated).as("connections of " + name + " terminated").isPositive();
		}

		FaultVerification finish() {
			awaitCondition("every instance to commit its share", Duration.ofSeconds(180),
					() -> this.instances.stream().allMatch(FaultInstanceProcess::isDone));
			double producedAt = seconds();
			try {
				awaitCondition("no pending outbox row", Duration.ofSeconds(120), () -> pending() == 0);
			}
			catch (ConditionTimeoutException ex) {
				// The verification below names the rows left behind.
				System.out.println("[" + this.name + "] " + ex.getMessage());
			}
			double drainedAt = seconds();
			this.instances.forEach(FaultInstanceProcess::stop);
			FaultVerification verification = FaultVerification.of(this.database.jdbc(), this.outboxes,
					broker.bootstrapServers(), this.topic, this.log.rolledBack());
			report(verification, producedAt, drainedAt);

			assertThat(verification.committed.size()).as("committed events").isGreaterThanOrEqualTo(this.events)
				.isLessThanOrEqualTo(this.events + this.log.errors().size());
			assertThat(verification.counterSum()).as("counter increments = committed events")
				.isEqualTo(verification.committed.size());
			assertThat(verification.rolledBackStored).as("rows of rolled-back transactions").isEmpty();
			assertThat(verification.missing).as("committed events missing").isEmpty();
			assertThat(verification.unexpected).as("received events that were not committed").isEmpty();
			assertThat(verification.rolledBackReceived).as("events of rolled-back transactions received").isEmpty();
			assertThat(verification.orderViolations).as("per-key order violations").isEmpty();
			assertThat(verification.gaps).as("keys whose last delivery is not their counter").isEmpty();
			assertThat(verification.notPublished).as("rows not PUBLISHED").isEmpty();
			assertThat(verification.misplaced).as("rows in the outbox of another tenant").isEmpty();
			assertThat(verification.committedByOutbox().keySet()).as("outboxes with committed events")
				.hasSize(this.outboxes.size());
			return verification;
		}

		/**
		 * Business transactions keep committing while the broker is down. How long they took is a figure
		 * of this loaded machine, printed for the record, not a verdict: the benchmarks measure it.
		 */
		void assertCommitsDuringBrokerOutages() {
			List<Commit> commits = this.log.commits();
			for (Outage outage : this.outages) {
				long from = outage.down().toEpochMilli();
				long to = outage.up().toEpochMilli();
				LongSummaryStatistics latency = commits.stream()
					.filter((commit) -> commit.epochMillis() >= from && commit.epochMillis() <= to)
					.mapToLong(Commit::latencyMicros)
					.summaryStatistics();
				System.out.printf("[%s] while the broker was down (%s, %.1f s): %d commits, latency max %.1f ms, avg %.1f ms%n",
						this.name, outage, (to - from) / 1000.0, latency.getCount(), latency.getMax() / 1000.0,
						latency.getAverage() / 1000.0);
				assertThat(latency.getCount()).as("commits while the broker was down").isPositive();
			}
		}

		private void report(FaultVerification verification, double producedAt, double drainedAt) {
			LongSummaryStatistics latency = this.log.commits()
				.stream()
				.mapToLong(Commit::latencyMicros)
				.summaryStatistics();
			StringBuilder out = new StringBuilder();
			out.append(String.format("%n[%s] ===== figures (%s, topic %s, tables %s) =====%n", this.name,
					this.database.database(), this.topic, String.join(", ", tables())));
			out.append(String.format("[%s] committed events %d, rolled back on purpose %d, other failed transactions %d%n",
					this.name, verification.committed.size(), this.log.rolledBack().size(), this.log.errors().size()));
			out.append(String.format("[%s] commit latency: max %.1f ms, avg %.2f ms over %d commits%n", this.name,
					latency.getMax() / 1000.0, latency.getAverage() / 1000.0, latency.getCount()));
			for (Fault fault : this.log.faults()) {
				out.append(String.format("[%s] fault: %s%n", this.name, fault));
			}
			out.append(String.format(
					"[%s] received %d messages, %d distinct; missing %d, not committed %d, from rolled-back transactions %d, "
							+ "duplicates %d, order violations %d, gaps %d, rows not published %d, "
							+ "rows in another tenant's outbox %d%n",
					this.name, verification.messages.size(), verification.receivedIds.size(), verification.missing.size(),
					verification.unexpected.size(), verification.rolledBackReceived.size(),
					verification.duplicates.size(), verification.orderViolations.size(), verification.gaps.size(),
					verification.notPublished.size(), verification.misplaced.size()));
			if (!this.tenants.isEmpty()) {
				out.append(String.format("[%s] committed events by outbox: %s%n", this.name,
						verification.committedByOutbox()));
			}
			out.append(String.format("[%s] runtime: all committed at %.1f s, all published at %.1f s, verified at %.1f s%n",
					this.name, producedAt, drainedAt, seconds()));
			print(out, "duplicate", verification.duplicates);
			print(out, "missing", verification.missing);
			print(out, "not committed", verification.unexpected);
			print(out, "order violation", verification.orderViolations);
			print(out, "gap", verification.gaps);
			print(out, "not published", verification.notPublished);
			print(out, "in another tenant's outbox", verification.misplaced);
			print(out, "instance error", this.log.errors());
			System.out.println(out);
		}

		private void print(StringBuilder out, String label, List<String> lines) {
			lines.stream().limit(50).forEach((line) -> out.append(String.format("[%s]   %s: %s%n", this.name, label, line)));
			if (lines.size() > 50) {
				out.append(String.format("[%s]   ... %d more%n", this.name, lines.size() - 50));
			}
		}

		private FaultInstanceProcess instance(String name) {
			return this.instances.stream().filter((instance) -> instance.name().equals(name)).findFirst().orElseThrow();
		}

		/** The tenant whose transaction raises the poison event: {@code null} for none. */
		@Nullable String poisonTenant() {
			return this.tenants.isEmpty() ? null : POISON_TENANT;
		}

		private List<String> tables() {
			return this.outboxes.stream().map(FaultVerification.Outbox::table).toList();
		}

		private int pending() {
			int pending = 0;
			for (String table : tables()) {
				pending += this.database.jdbc()
					.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE status = 'PENDING'", Integer.class);
			}
			return pending;
		}

		/**
		 * Every 2 s: commits, the pending backlog and statements of the instances that run long.
		 */
		private void sample() {
			if (System.nanoTime() - this.lastSample < Duration.ofSeconds(2).toNanos()) {
				return;
			}
			this.lastSample = System.nanoTime();
			System.out.printf("[%s] %.1f s: %d committed, %d pending%n", this.name, seconds(), this.log.committed(),
					pending());
			this.database.slowStatements()
				.forEach((statement) -> System.out.println("[" + this.name + "]   running " + statement));
		}

		private void awaitCondition(String what, Duration atMost, BooleanSupplier condition) {
			await(what).atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
				sample();
				for (FaultInstanceProcess instance : this.instances) {
					if (!instance.isAlive() && !instance.isDone()) {
						throw new IllegalStateException(instance.name() + " died; see " + this.directory);
					}
				}
				return condition.getAsBoolean();
			});
		}

		private double seconds() {
			return (System.nanoTime() - this.startNanos) / 1e9;
		}

		private String elapsed() {
			return String.format("%.1f s", seconds());
		}

		void close() {
			this.instances.forEach(FaultInstanceProcess::stop);
			System.out.println("[" + this.name + "] closed after " + elapsed() + "; instance logs in " + this.directory);
		}

	}

}
