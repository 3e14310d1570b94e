package dev.outboxstarter.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import dev.outboxstarter.testsupport.FaultClassPath;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TestDatabase;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An instance that stops without dying (SIGSTOP, as a long garbage collection, a frozen VM or a network
 * partition leave it) while its claimed batch awaits the broker's acknowledgements: the database ends
 * the claim's transaction once its connection has been idle for the claim idle limit, and the other
 * instance publishes the claimed keys' events, while every other key's events never waited for it.
 * When the frozen instance runs on, its claim fails, it polls again on a fresh connection, and nothing
 * is lost or out of order.
 * <p>
 * Two instances, each a JVM process: {@code i1} commits the events, {@code i2} only relays. The broker
 * is paused (SIGSTOP: it accepts requests and answers none), so that claims wait for acknowledgements;
 * {@code i2} is frozen while it holds such a claim, and the broker runs on at once.
 */
class FrozenInstanceTests {

	private static final int KEYS = 50;

	private static final int EVENTS = 1_200;

	/** Slow enough that i1 still commits events while the broker is paused, for claims to wait on. */
	private static final int COMMITS_PER_SECOND = 120;

	/**
	 * Long enough that the claim idle limit it gives leaves the other keys time to drain on a loaded
	 * machine while the frozen claim still holds its keys.
	 */
	private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);

	/** What the outbox derives from the publish timeout: twice it, and at least 10 s more than it. */
	private static final Duration CLAIM_IDLE_LIMIT = Duration.ofSeconds(15);

	/** Times the relay-only instance is frozen until it is frozen in a claim, not just past one. */
	private static final int FREEZE_ATTEMPTS = 5;

	private static KafkaBrokerProcess broker;

	@BeforeAll
	static void startBroker() {
		FaultClassPath.snapshot();
		broker = KafkaBrokerProcess.start(Path.of("target", "faults", "frozen-broker.log"));
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.close();
		}
	}

	/**
	 * On PostgreSQL. MariaDB's claim idle limit is proven at the store ({@code OutboxStoreLockingTests}):
	 * on MariaDB this scenario does not reliably reach its starting point, a claim of i2's awaiting
	 * acknowledgements while the broker is paused.
	 */
	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = "POSTGRESQL")
	void frozenInstanceHoldsItsClaimedKeysOnlyUntilTheClaimIdleLimit(TestDatabase testDatabase) {
		String name = "frozen-" + testDatabase.name().toLowerCase();
		String table = "outbox_frozen";
		String topic = name + "-" + System.currentTimeMillis();
		Path directory = Path.of("target", "faults", name);
		FaultDatabase database = new FaultDatabase(testDatabase);
		FaultLog log = new FaultLog();
		List<FaultInstanceProcess> instances = new ArrayList<>();
		try {
			Files.createDirectories(directory);
			database.prepare(table, KEYS, List.of("i1", "i2"));
			broker.createTopic(topic, 3);
			// i2 first: it creates the table and only relays; i1 commits every event.
			// i2's relay polls more often than i1's, so that it claims rows that come due while the broker is
			// paused before i1's relay, which passes over those its own fast path still has in flight.
			FaultInstanceProcess relayOnly = instance("i2", 0, Duration.ofMillis(50), database, table, topic,
					directory, log);
			FaultInstanceProcess committing = instance("i1", EVENTS, Duration.ofSeconds(1), database, table, topic,
					directory, log);
			instances.add(relayOnly);
			instances.add(committing);
			relayOnly.start();
			relayOnly.awaitReady();
			committing.start();
			committing.awaitReady();
			awaitCondition("i1 to commit 40 % of its events", Duration.ofSeconds(120),
					() -> log.committed() >= EVENTS * 4 / 10, instances);

			boolean frozenHoldingAClaim = false;
			for (int attempt = 1; attempt <= FREEZE_ATTEMPTS && !frozenHoldingAClaim; attempt++) {
				broker.pause();
				try {
					await("i2 to hold a claim awaiting acknowledgements").atMost(Duration.ofSeconds(60))
						.pollInterval(Duration.ofMillis(20))
						.until(() -> database.isPublishing("i2", table));
					relayOnly.freeze();
					// The claim may have ended between the check and the signal: only one it still holds
					// once frozen is the scenario.
					frozenHoldingAClaim = keepsHolding(database, "i2", table);
					if (!frozenHoldingAClaim) {
						relayOnly.thaw();
					}
				}
				finally {
					broker.resume();
				}
			}
			assertThat(frozenHoldingAClaim).as("i2 frozen while it held a claim, in %d attempts", FREEZE_ATTEMPTS)
				.isTrue();
			System.out.println("[" + name + "] i2 frozen while it held a claim, at " + Instant.now());

			// Every other key's events are published while the frozen claim still holds its keys: the
			// only rows left pending are those of keys whose earliest pending row is locked. It must hold
			// for longer than the publish timeout, so that it is not i1's own claim in flight.
			Map<String, Integer> heldKeys = new HashMap<>();
			await("only the frozen claim's keys to stay pending").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(100))
				.during(PUBLISH_TIMEOUT.plusMillis(500))
				.until(() -> {
					assertAlive(instances);
					boolean held = committing.isDone() && onlyHeldKeysPending(database, table, heldKeys);
					sample(name, database, table, heldKeys);
					return held;
				});
			System.out.println("[" + name + "] every other key published; still pending: " + heldKeys);
			assertThat(heldKeys).as("keys held by the frozen claim").isNotEmpty().hasSizeLessThan(KEYS);

			// The frozen claim's keys follow within the claim idle limit (asserted generously above it).
			awaitCondition("no pending row while i2 stays frozen", CLAIM_IDLE_LIMIT.plusSeconds(60),
					() -> pending(database, table) == 0, instances);
			System.out.println("[" + name + "] everything published while i2 was frozen");

			// Running on, the frozen instance finds its claim's connection ended: that poll fails, and the
			// next one runs on a connection that works.
			relayOnly.thaw();
			awaitCondition("i2 to poll again after its failed claim", Duration.ofSeconds(60),
					() -> read(relayOnly.logFile()).contains("Outbox relay polls again"), instances);
			assertThat(read(relayOnly.logFile())).contains("Outbox relay poll failed");

			instances.forEach(FaultInstanceProcess::stop);
			FaultVerification verification = FaultVerification.of(database.jdbc(), table, broker.bootstrapServers(),
					topic, log.rolledBack());
			System.out.println("[" + name + "] committed " + verification.committed.size() + ", received "
					+ verification.messages.size() + ", duplicates " + verification.duplicates.size()
					+ ", missing " + verification.missing.size() + ", order violations "
					+ verification.orderViolations.size());
			assertThat(verification.committed).as("committed events").hasSize(EVENTS);
			assertThat(verification.missing).as("committed events missing").isEmpty();
			assertThat(verification.unexpected).as("received events that were not committed").isEmpty();
			assertThat(verification.rolledBackReceived).as("events of rolled-back transactions received").isEmpty();
			assertThat(verification.orderViolations).as("per-key order violations").isEmpty();
			assertThat(verification.gaps).as("keys whose last delivery is not their counter").isEmpty();
			assertThat(verification.notPublished).as("rows not PUBLISHED").isEmpty();
			assertThat(log.errors()).as("failed business transactions").isEmpty();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			instances.forEach(FaultInstanceProcess::stop);
			System.out.println("[" + name + "] instance logs in " + directory);
		}
	}

	private static FaultInstanceProcess instance(String instance, int share, Duration pollInterval,
			FaultDatabase database, String table,
			String topic, Path directory, FaultLog log) throws IOException {
		List<String> arguments = new ArrayList<>(database.properties(instance));
		arguments.addAll(List.of("fault.instance=" + instance, "fault.share=" + share, "fault.keys=" + KEYS,
				"fault.rate=" + COMMITS_PER_SECOND, "fault.threads=2", "fault.topic=" + topic, "outbox.table-name=" + table,
				"outbox.fast-path.grace-period=1s", "outbox.publish-timeout=" + PUBLISH_TIMEOUT.toMillis() + "ms",
				"outbox.relay.poll-interval=" + pollInterval.toMillis() + "ms", "outbox.relay.batch-size=20", "outbox.retry.initial-delay=200ms",
				"outbox.retry.max-delay=1s", "outbox.retry.max-attempts=1000",
				"spring.datasource.hikari.maximum-pool-size=4", "spring.jpa.hibernate.ddl-auto=none",
				"spring.main.banner-mode=off", "logging.level.root=WARN",
				"logging.level.dev.outboxstarter.internal.delivery.OutboxRelay=INFO",
				"spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
				"spring.kafka.producer.properties.max.block.ms=1000",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200"));
		Path logFile = directory.resolve(instance + ".log");
		Files.deleteIfExists(logFile);
		return new FaultInstanceProcess(instance, arguments, logFile, log);
	}

	/**
	 * Whether rows are pending and each of them is of a key whose earliest pending row another
	 * transaction has locked (a {@code SKIP LOCKED} read passes over it); fills {@code heldKeys} with
	 * those keys and their pending rows.
	 */
	/**
	 * Whether a frozen instance's claim stays open: a claim whose commit was on its way when the instance
	 * was stopped ends a moment later.
	 */
	private static boolean keepsHolding(FaultDatabase database, String instance, String table) {
		try {
			await().atMost(Duration.ofSeconds(3))
				.during(Duration.ofSeconds(1))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> database.isPublishing(instance, table));
			return true;
		}
		catch (ConditionTimeoutException ex) {
			return false;
		}
	}

	private static boolean onlyHeldKeysPending(FaultDatabase database, String table, Map<String, Integer> heldKeys) {
		DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(
				database.database().dataSource());
		TransactionTemplate transaction = new TransactionTemplate(transactionManager);
		transaction.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		Boolean held = transaction.execute((status) -> {
			status.setRollbackOnly();
			JdbcTemplate jdbc = new JdbcTemplate(transactionManager.getDataSource());
			Map<String, String> earliestPendingByKey = new HashMap<>();
			Map<String, Integer> pendingByKey = new HashMap<>();
			jdbc.query("SELECT id, message_key FROM " + table + " WHERE status = 'PENDING' ORDER BY seq", (RowCallbackHandler) (rs) -> {
				earliestPendingByKey.putIfAbsent(rs.getString("message_key"), rs.getString("id"));
				pendingByKey.merge(rs.getString("message_key"), 1, Integer::sum);
			});
			Set<String> lockable = new HashSet<>(jdbc.queryForList(
					"SELECT id FROM " + table + " WHERE status = 'PENDING' FOR UPDATE SKIP LOCKED", String.class));
			heldKeys.clear();
			pendingByKey.forEach((key, rows) -> {
				if (!lockable.contains(earliestPendingByKey.get(key))) {
					heldKeys.put(key, rows);
				}
			});
			return !pendingByKey.isEmpty() && heldKeys.keySet().equals(pendingByKey.keySet());
		});
		return Boolean.TRUE.equals(held);
	}

	private static long lastSample;

	/**
	 * Every 2 s: the pending rows, the keys held, and whether i2 still holds its claim.
	 */
	private static void sample(String name, FaultDatabase database, String table, Map<String, Integer> heldKeys) {
		if (System.nanoTime() - lastSample < Duration.ofSeconds(2).toNanos()) {
			return;
		}
		lastSample = System.nanoTime();
		System.out.println("[" + name + "] " + Instant.now() + ": " + pending(database, table)
				+ " pending, held keys " + heldKeys + ", i2 claiming " + database.isPublishing("i2", table));
	}

	private static int pending(FaultDatabase database, String table) {
		return database.jdbc()
			.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE status = 'PENDING'", Integer.class);
	}

	private static void awaitCondition(String what, Duration atMost, BooleanSupplier condition,
			List<FaultInstanceProcess> instances) {
		await(what).atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
			assertAlive(instances);
			return condition.getAsBoolean();
		});
	}

	private static void assertAlive(List<FaultInstanceProcess> instances) {
		for (FaultInstanceProcess instance : instances) {
			if (!instance.isAlive()) {
				throw new IllegalStateException(instance.name() + " died; see " + instance.logFile());
			}
		}
	}

	private static String read(Path file) {
		try {
			return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
