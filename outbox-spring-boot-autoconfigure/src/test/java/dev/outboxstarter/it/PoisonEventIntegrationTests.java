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
 * A poison event (it always fails) holds back only its own key, and only until it is DEAD; then, by
 * default, its key moves on. A DEAD event can be put back and is published once its cause is fixed.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=unused", "outbox.table-name=" + PoisonEventIntegrationTests.TABLE,
				"outbox.relay.poll-interval=100ms", "outbox.retry.initial-delay=200ms", "outbox.retry.max-delay=200ms",
				"outbox.retry.jitter=0", "outbox.retry.max-attempts=3" })
@Import(KeyedSteps.class)
class PoisonEventIntegrationTests {

	static final String TABLE = "outbox_it_poison";

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
	void poisonEventHoldsBackOnlyItsKeyUntilItIsDeadAndCanBeRetriedOnceFixed() {
		String poisoned = "k-" + UUID.randomUUID();
		String healthy = "l-" + UUID.randomUUID();
		this.transactions.executeWithoutResult((status) -> {
			this.outbox.publish(new Step(poisoned, 1, true));
			this.outbox.publish(new Step(poisoned, 2, false));
			this.outbox.publish(new Step(healthy, 1, false));
			this.outbox.publish(new Step(poisoned, 3, false));
		});

		// The other key is not delayed, while the poisoned one waits behind its first step.
		await().atMost(Duration.ofSeconds(5)).until(() -> this.steps.handledOf(healthy).equals(List.of(healthy + "#1")));
		assertThat(this.steps.handledOf(poisoned)).isEmpty();
		assertThat(rows().statusOf(poisoned, 1)).isEqualTo("PENDING");

		// Once the poison is DEAD, its key moves on, in order.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.steps.handledOf(poisoned).equals(List.of(poisoned + "#2", poisoned + "#3")));
		assertThat(rows().statusOf(poisoned, 1)).isEqualTo("DEAD");
		assertThat(rows().attemptsOf(poisoned, 1)).isEqualTo(3);

		this.steps.healed.add(poisoned);
		assertThat(this.deadEvents.retry(rows().idOf(poisoned, 1))).isTrue();
		assertThat(this.deadEvents.retry(rows().idOf(poisoned, 1))).as("no longer DEAD").isFalse();

		await().atMost(Duration.ofSeconds(10)).until(() -> rows().statusOf(poisoned, 1).equals("PUBLISHED"));
		assertThat(this.steps.handledOf(poisoned)).containsExactly(poisoned + "#2", poisoned + "#3", poisoned + "#1");
	}

	private StepRows rows() {
		return new StepRows(this.jdbc, TABLE);
	}

}
