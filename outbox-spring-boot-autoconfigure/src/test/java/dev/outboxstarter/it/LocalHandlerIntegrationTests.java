package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code local} transport: {@code @OutboxHandler} methods run after the business transaction
 * committed, each in a transaction of its own, and are retried like a broker publish.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=it-local", "outbox.table-name=" + LocalHandlerIntegrationTests.TABLE,
				"outbox.relay.poll-interval=100ms", "outbox.retry.initial-delay=100ms", "outbox.retry.max-delay=200ms",
				"outbox.retry.jitter=0", "outbox.retry.max-attempts=3", "outbox.publish-timeout=1s" })
@Import(LocalHandlerIntegrationTests.Handlers.class)
@ExtendWith(OutputCaptureExtension.class)
class LocalHandlerIntegrationTests {

	static final String TABLE = "outbox_it_local";

	static final String AUDIT_TABLE = "outbox_it_local_audit";

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestDatabase.POSTGRESQL.dropTable(AUDIT_TABLE);
		new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource())
			.execute("CREATE TABLE " + AUDIT_TABLE + " (customer VARCHAR(255) NOT NULL, message_id UUID NOT NULL)");
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private Handlers handlers;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void handlerRunsAfterTheCommitInATransactionOfItsOwn() {
		String customer = unique("audit");
		this.orders.place(customer, new Audited(customer));

		Invocation invocation = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.handlers.audited.get(customer), (found) -> found != null);
		assertThat(invocation.inTransaction()).isTrue();
		assertThat(invocation.businessRowsVisible()).as("the business transaction has committed").isEqualTo(1);
		assertThat(invocation.thread()).isEqualTo("outbox-local");
		await().atMost(Duration.ofSeconds(10)).until(() -> statusOf(invocation.messageId()).equals("PUBLISHED"));
		assertThat(auditRows(customer)).containsExactly(invocation.messageId().toString());
	}

	@Test
	void handlerThatThrowsHasItsWorkRolledBackAndIsRetried() {
		String customer = unique("flaky");
		this.orders.place(customer, new Audited(customer));

		await().atMost(Duration.ofSeconds(10)).until(() -> this.handlers.attempts(customer) == 2);
		// The second attempt counts itself before it has handled the event.
		Invocation invocation = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.handlers.audited.get(customer), Objects::nonNull);
		await().atMost(Duration.ofSeconds(10)).until(() -> statusOf(invocation.messageId()).equals("PUBLISHED"));
		// The first attempt wrote a row too, then failed: its transaction rolled back.
		assertThat(auditRows(customer)).hasSize(1);
	}

	@Test
	void handlerThatAlwaysFailsIsRetriedThenDead() {
		String customer = unique("doomed");
		this.orders.place(customer, new Doomed(customer));

		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.jdbc.queryForList("SELECT status FROM " + TABLE + " WHERE payload LIKE ?", String.class,
					"%" + customer + "%"), (statuses) -> statuses.equals(List.of("DEAD")));
		Map<String, Object> row = this.jdbc.queryForMap("SELECT attempts, last_error FROM " + TABLE + " WHERE payload LIKE ?",
				"%" + customer + "%");
		assertThat(row.get("attempts")).isEqualTo(3);
		assertThat((String) row.get("last_error")).contains("IllegalStateException").contains("cannot handle " + customer);
		assertThat(this.handlers.attempts(customer)).isEqualTo(3);
	}

	@Test
	void rolledBackBusinessTransactionNeverCallsTheHandler() {
		String customer = unique("rolled-back");
		this.transactions.executeWithoutResult((status) -> {
			this.orders.place(customer, new Audited(customer));
			status.setRollbackOnly();
		});
		String marker = unique("marker");
		this.orders.place(marker, new Audited(marker));

		// Handlers run one at a time in publish order: once the later event is handled, the earlier
		// one would have been.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.handlers.audited.containsKey(marker));
		assertThat(this.handlers.attempts(customer)).isZero();
		assertThat(auditRows(customer)).isEmpty();
	}

	@Test
	void handlerSlowerThanThePublishTimeoutHandlesEveryEventOnceAndIsNoOutage(CapturedOutput output) {
		String customer = unique("slow");
		Object[] events = IntStream.range(0, 20).mapToObj((sequence) -> new Slow(customer, sequence)).toArray();
		try {
			this.orders.place(customer, events);
			// The batch stopped waiting for the first event's handler, which is still running.
			await().atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> this.jdbc.queryForList("SELECT last_error FROM " + TABLE + " WHERE payload LIKE ?",
						String.class, "%" + customer + "%"), (errors) -> errors.stream().anyMatch(Objects::nonNull));
		}
		finally {
			this.handlers.slowHandlerMayFinish.countDown();
		}

		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE payload LIKE ? AND status = 'PUBLISHED'",
					Integer.class, "%" + customer + "%") == events.length);
		assertThat(this.handlers.slowlyHandled(customer)).as("times each event was handled")
			.isEqualTo(IntStream.range(0, events.length).boxed().collect(Collectors.toMap((sequence) -> sequence, (sequence) -> 1)));
		assertThat(output.getAll()).doesNotContain("Outbox transport 'local' is unavailable");
	}

	private String statusOf(UUID id) {
		return this.jdbc.queryForObject("SELECT status FROM " + TABLE + " WHERE id = ?", String.class, id);
	}

	private List<String> auditRows(String customer) {
		return this.jdbc.queryForList("SELECT message_id::text FROM " + AUDIT_TABLE + " WHERE customer = ?", String.class,
				customer);
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID();
	}

	@OutboxEvent(transport = "local", destination = "audit")
	record Audited(String customer) {
	}

	@OutboxEvent(transport = "local", destination = "always-failing")
	record Doomed(String customer) {
	}

	@OutboxEvent(transport = "local", destination = "slow")
	record Slow(String customer, int sequence) {
	}

	record Invocation(boolean inTransaction, int businessRowsVisible, String thread, UUID messageId) {
	}

	/** Registered through @Import, like any @Component of the application. */
	static class Handlers {

		final Map<String, Invocation> audited = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

		private final JdbcTemplate jdbc;

		/** Handled Slow events: customer, then sequence, then how many times. */
		private final Map<String, Map<Integer, AtomicInteger>> slow = new ConcurrentHashMap<>();

		/** Holds the first Slow event's handler until the test has seen the outbox stop waiting for it. */
		final CountDownLatch slowHandlerMayFinish = new CountDownLatch(1);

		Handlers(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		int attempts(String customer) {
			AtomicInteger count = this.attempts.get(customer);
			return (count != null) ? count.get() : 0;
		}

		private int attempt(String customer) {
			return this.attempts.computeIfAbsent(customer, (key) -> new AtomicInteger()).incrementAndGet();
		}

		@OutboxHandler("audit")
		void audit(Audited event, OutboxMessage message) {
			int attempt = attempt(event.customer());
			// Through a connection of its own: sees only what other transactions have committed.
			Integer visible = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource())
				.queryForObject("SELECT COUNT(*) FROM purchase_order WHERE customer = ?", Integer.class, event.customer());
			this.jdbc.update("INSERT INTO " + AUDIT_TABLE + " (customer, message_id) VALUES (?, ?)", event.customer(),
					message.id());
			if (event.customer().startsWith("flaky") && attempt == 1) {
				throw new IllegalStateException("first attempt fails after writing");
			}
			this.audited.put(event.customer(), new Invocation(TransactionSynchronizationManager.isActualTransactionActive(),
					visible, Thread.currentThread().getName(), message.id()));
		}

		Map<Integer, Integer> slowlyHandled(String customer) {
			return this.slow.getOrDefault(customer, Map.of())
				.entrySet()
				.stream()
				.collect(Collectors.toMap(Map.Entry::getKey, (handled) -> handled.getValue().get()));
		}

		@OutboxHandler("slow")
		void slow(Slow event) throws InterruptedException {
			this.slow.computeIfAbsent(event.customer(), (customer) -> new ConcurrentHashMap<>())
				.computeIfAbsent(event.sequence(), (sequence) -> new AtomicInteger())
				.incrementAndGet();
			if (event.sequence() == 0) {
				this.slowHandlerMayFinish.await(30, TimeUnit.SECONDS);
			}
		}

		@OutboxHandler("always-failing")
		void fail(Doomed event) {
			attempt(event.customer());
			throw new IllegalStateException("cannot handle " + event.customer());
		}

	}

}
