package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.Outbox;
import dev.outboxstarter.it.KeyedSteps.Step;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With {@code outbox.dead-event-blocks-key=true}, a DEAD event keeps holding back its key until it is
 * retried and published; other keys are not delayed.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=unused", "outbox.table-name=" + DeadEventBlocksKeyIntegrationTests.TABLE,
				"outbox.dead-event-blocks-key=true", "outbox.relay.poll-interval=100ms",
				"outbox.retry.initial-delay=100ms", "outbox.retry.max-delay=100ms", "outbox.retry.jitter=0",
				"outbox.retry.max-attempts=2" })
@Import(KeyedSteps.class)
class DeadEventBlocksKeyIntegrationTests {

	static final String TABLE = "outbox_it_dead_blocks";

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
	private DeadEvents deadEvents;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void deadEventKeepsItsKeyHeldBackUntilRetried() {
		String poisoned = "k-" + UUID.randomUUID();
		String healthy = "l-" + UUID.randomUUID();
		this.transactions.executeWithoutResult((status) -> {
			this.outbox.publish(new Step(poisoned, 1, true));
			this.outbox.publish(new Step(poisoned, 2, false));
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> rows().statusOf(poisoned, 1).equals("DEAD"));

		// Later events of the key, and new ones, stay behind it; other keys flow.
		this.transactions.executeWithoutResult((status) -> {
			this.outbox.publish(new Step(poisoned, 3, false));
			this.outbox.publish(new Step(healthy, 1, false));
		});
		await().atMost(Duration.ofSeconds(5)).until(() -> this.steps.handledOf(healthy).equals(List.of(healthy + "#1")));
		await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2)).until(() -> this.steps.handledOf(poisoned).isEmpty());
		assertThat(rows().statusOf(poisoned, 2)).isEqualTo("PENDING");
		assertThat(rows().attemptsOf(poisoned, 2)).as("never tried").isZero();

		this.steps.healed.add(poisoned);
		assertThat(this.deadEvents.retryAll("Step")).isEqualTo(1);

		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.steps.handledOf(poisoned)
				.equals(List.of(poisoned + "#1", poisoned + "#2", poisoned + "#3")));
	}

	private StepRows rows() {
		return new StepRows(this.jdbc, TABLE);
	}

}
