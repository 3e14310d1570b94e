package dev.outboxstarter.modulith;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.modulith.invoicing.InvoiceIssued;
import dev.outboxstarter.modulith.invoicing.InvoiceSettled;
import dev.outboxstarter.modulith.invoicing.InvoiceVoided;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An event Modulith externalizes that the outbox's own rules route as well would be written to the
 * outbox twice, under two message ids: outbox mode refuses it when it is raised, and its transaction
 * writes nothing.
 */
class ExternalizedOutboxEventTests {

	private static final String TABLE = "outbox_modulith_double_routes";

	private final ApplicationContextRunner runner = InvoicingContexts.withUnpublishedRowsIn(TABLE)
		.withPropertyValues(DocumentedSwitch.properties());

	@BeforeEach
	void dropTable() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
	}

	@Test
	void anExternalizedEventThatIsAnOutboxEventTooIsRefusedAndItsTransactionWritesNothing() {
		this.runner.run((context) -> {
			assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> publishInOneTransaction(context, new InvoiceIssued("invoice-1", 10),
						new InvoiceVoided("invoice-2")))
				.withMessageContaining("Event " + InvoiceVoided.class.getName() + " is externalized by Spring Modulith")
				.withMessageContaining("to 'invoices' keyed by '#{#this.invoiceId()}'")
				.withMessageContaining("'invoice-voids' on the default transport (@OutboxEvent)")
				.withMessageContaining("would be written to the outbox twice")
				.withMessageContaining("remove its @OutboxEvent")
				.withMessageContaining("leave it out of the EventExternalizationConfiguration");
			assertThat(rows()).isZero();
		});
	}

	@Test
	void aTransactionThatCatchesTheRefusalCannotCommit() {
		this.runner.run((context) -> {
			assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> context.getBean(TransactionTemplate.class).executeWithoutResult((status) -> {
					context.publishEvent(new InvoiceIssued("invoice-6", 60));
					try {
						context.publishEvent(new InvoiceVoided("invoice-6"));
					}
					catch (OutboxCaptureException ex) {
						// Carries on as if it had been written.
					}
				}))
				.withMessageContaining("Event " + InvoiceVoided.class.getName() + " is externalized by Spring Modulith");
			assertThat(rows()).isZero();
		});
	}

	@Test
	void anExternalizedEventWithAnOutboxRoutesEntryIsRefusedNamingTheEntry() {
		this.runner.withPropertyValues("outbox.routes[" + InvoiceSettled.class.getName() + "].destination=settlements")
			.run((context) -> {
				assertThatExceptionOfType(OutboxCaptureException.class)
					.isThrownBy(() -> publishInOneTransaction(context, new InvoiceSettled("invoice-3")))
					.withMessageContaining("'settlements' on the default transport (outbox.routes["
							+ InvoiceSettled.class.getName() + "])")
					.withMessageContaining("its outbox.routes[" + InvoiceSettled.class.getName() + "] entry");
				assertThat(rows()).isZero();
			});
	}

	@Test
	void anExternalizedEventAnOutboxEventRouterRoutesIsRefusedNamingTheRouter() {
		this.runner.withBean(SettlementRouter.class).run((context) -> {
			assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> publishInOneTransaction(context, new InvoiceSettled("invoice-4")))
				.withMessageContaining("'settlements' on kafka (the OutboxEventRouter " + SettlementRouter.class.getName()
						+ ")");
			assertThat(rows()).isZero();
		});
	}

	@Test
	void anExternalizedEventTheOutboxDoesNotRouteIsWrittenOnce() {
		this.runner.withBean(SettlementRouter.class).run((context) -> {
			publishInOneTransaction(context, new InvoiceIssued("invoice-5", 50));
			assertThat(rows()).isOne();
		});
	}

	private static void publishInOneTransaction(AssertableApplicationContext context, Object... events) {
		context.getBean(TransactionTemplate.class).executeWithoutResult((status) -> {
			for (Object event : events) {
				context.publishEvent(event);
			}
		});
	}

	private static int rows() {
		return new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource()).queryForObject("SELECT COUNT(*) FROM " + TABLE,
				Integer.class);
	}

	/**
	 * Routes settlements by code.
	 */
	static class SettlementRouter implements OutboxEventRouter {

		@Override
		public OutboxRoute route(Object event) {
			return (event instanceof InvoiceSettled settled)
					? new OutboxRoute("InvoiceSettled", "kafka", "settlements", settled.invoiceId(), null) : null;
		}

	}

}
