package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.it.billing.BillingService;
import dev.outboxstarter.it.billing.BillingTestApplication;
import dev.outboxstarter.it.orders.CapturedEvents;
import dev.outboxstarter.it.orders.CapturedEvents.Delivery;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

/**
 * An outbox event published in a transaction of a data source that has no outbox (turned off with
 * {@code outbox.datasources.<name>.enabled=false}), which touched the outbox's database on the way (and
 * so holds a connection to it in auto-commit), is refused: it would otherwise be stored and delivered
 * although the business change rolls back. On PostgreSQL, with a billing schema whose foreign key is
 * checked at commit.
 */
class OtherTransactionManagerCaptureIntegrationTests {

	private static final String TABLE = "outbox_it_billing";

	private static final long NO_SUCH_CUSTOMER = 404;

	private static ConfigurableApplicationContext context;

	@BeforeAll
	static void start() {
		TestDatabase database = TestDatabase.POSTGRESQL;
		database.dropTable(TABLE);
		JdbcTemplate jdbc = new JdbcTemplate(database.dataSource());
		jdbc.execute("DROP SCHEMA IF EXISTS billing CASCADE");
		jdbc.execute("CREATE SCHEMA billing");
		jdbc.execute("CREATE TABLE billing.customer (id BIGINT PRIMARY KEY)");
		jdbc.execute("CREATE TABLE billing.invoice (id BIGSERIAL PRIMARY KEY, reference VARCHAR(100) NOT NULL, "
				+ "customer_id BIGINT NOT NULL REFERENCES billing.customer (id) DEFERRABLE INITIALLY DEFERRED)");
		context = new SpringApplicationBuilder(BillingTestApplication.class, CapturedEvents.class)
			.web(WebApplicationType.NONE)
			.properties(properties(database))
			.run();
	}

	private static String[] properties(TestDatabase database) {
		// Without the fast path every row goes through the relay, in the order it was written.
		List<String> properties = new ArrayList<>(List.of("outbox.table-name=" + TABLE,
				"outbox.fast-path.enabled=false", "outbox.relay.poll-interval=100ms",
				"outbox.datasources.billingDataSource.enabled=false"));
		properties.addAll(List.of(database.properties()));
		return properties.toArray(String[]::new);
	}

	@AfterAll
	static void close() {
		context.close();
	}

	@Test
	void eventPublishedInATransactionOfADataSourceWithoutAnOutboxIsRefusedNamingTheTransactionManagers() {
		BillingService billing = context.getBean(BillingService.class);
		String marker = unique("billing");

		Throwable refusal = catchThrowable(() -> billing.invoice(NO_SUCH_CUSTOMER, marker + "/rolled-back"));
		// A later event of the outbox's own transactions, delivered by the relay after any earlier row.
		billing.announce(marker + "/announced");

		List<Delivery> deliveries = await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> captured().startingWith(marker),
					(found) -> found.stream().anyMatch((delivery) -> delivery.reference().endsWith("/announced")));
		assertThat(deliveries).extracting(Delivery::reference).containsExactly(marker + "/announced");
		assertThat(jdbc().queryForList("SELECT payload FROM " + TABLE + " WHERE payload LIKE ?", String.class,
				"%" + marker + "%"))
			.singleElement(as(STRING))
			.contains(marker + "/announced");
		assertThat(jdbc().queryForObject("SELECT COUNT(*) FROM billing.invoice WHERE reference LIKE ?", Integer.class,
				marker + "%"))
			.isZero();
		assertThat(refusal).isInstanceOf(OutboxCaptureException.class)
			.hasMessageContaining("Event 'InvoiceRequested'")
			.hasMessageContaining("auto-commit")
			.hasMessageContaining("'billingTm'")
			.hasMessageContaining("'transactionManager'")
			.hasMessageContaining("BillingService.invoice");
	}

	private static CapturedEvents captured() {
		return context.getBean(CapturedEvents.class);
	}

	private static JdbcTemplate jdbc() {
		return context.getBean(JdbcTemplate.class);
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

}
