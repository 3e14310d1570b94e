package dev.outboxstarter.it;

import java.time.Duration;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.it.KeyedSteps.Step;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Events that do not fit in the fast-path queue are not lost: the relay publishes them once their
 * grace period has passed.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=unused", "outbox.table-name=" + FastPathOverflowIntegrationTests.TABLE,
				"outbox.fast-path.queue-capacity=5", "outbox.fast-path.grace-period=1s",
				"outbox.relay.poll-interval=100ms" })
@Import({ KeyedSteps.class, PublishedEvents.class })
class FastPathOverflowIntegrationTests {

	static final String TABLE = "outbox_it_overflow";

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Autowired
	private Outbox outbox;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private KeyedSteps steps;

	@Autowired
	private PublishedEvents published;

	@Autowired
	private OutboxMonitoring monitoring;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void eventsBeyondAFullFastPathQueueArePublishedByTheRelay() {
		String key = "overflow-" + UUID.randomUUID();
		long overflowBefore = this.monitoring.fastPathOverflowCount();
		this.transactions.executeWithoutResult((status) -> {
			for (int i = 1; i <= 50; i++) {
				this.outbox.publish(new Step(key + "-" + (i % 10), i, false));
			}
		});

		// The worker may take a few ids while the 50 are offered; the rest overflow.
		long overflowed = this.monitoring.fastPathOverflowCount() - overflowBefore;
		assertThat(overflowed).isGreaterThanOrEqualTo(30);
		await().atMost(Duration.ofSeconds(15))
			.until(() -> this.steps.handled.stream().filter((label) -> label.startsWith(key)).count() == 50);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.published.total() == 50);
		// Only the relay can have published what did not fit in the queue.
		assertThat(this.published.byRelay()).hasSizeGreaterThanOrEqualTo((int) overflowed);
	}

}
