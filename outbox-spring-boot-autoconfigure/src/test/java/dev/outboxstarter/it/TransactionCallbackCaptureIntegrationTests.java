package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.it.orders.CapturedEvents;
import dev.outboxstarter.it.orders.CapturedEvents.Delivery;
import dev.outboxstarter.it.orders.InvoiceRequested;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.it.orders.PurchaseOrder;
import dev.outboxstarter.it.orders.PurchaseOrderRepository;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Outbox events captured from the transaction's own callbacks: those captured before the commit, by a
 * before-commit listener that runs before or after the capture's own callback or that is the first
 * to capture anything in its transaction, are written in that transaction; those captured once it
 * completes, by an after-commit listener whatever its order, are refused, and the thread's next
 * transaction captures as usual. On PostgreSQL and MariaDB, with the application's (auto-configured)
 * JPA transaction manager.
 */
class TransactionCallbackCaptureIntegrationTests {

	private static final String TABLE = "outbox_it_callbacks";

	private static final Map<TestDatabase, Application> applications = new EnumMap<>(TestDatabase.class);

	@AfterAll
	static void close() {
		applications.values().forEach((application) -> application.context.close());
		applications.clear();
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void eventPublishedByABeforeCommitListenerInATransactionThatCapturedNothingElseIsDelivered(
			TestDatabase database) {
		Application application = application(database);
		String marker = unique("only-listener");

		application.transactions.executeWithoutResult(
				(status) -> application.events.publishEvent(new PublishBeforeCommit(marker + "/listener")));

		application.assertDeliveredOnce(marker, List.of(marker + "/listener"));
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void eventOfAnAggregateSavedByABeforeCommitListenerInATransactionThatCapturedNothingElseIsDelivered(
			TestDatabase database) {
		Application application = application(database);
		String marker = unique("only-saved-by-listener");

		application.transactions.executeWithoutResult(
				(status) -> application.events.publishEvent(new SaveBeforeCommit(marker + "/saved-by-listener")));

		application.assertDeliveredOnce(marker, List.of(marker + "/saved-by-listener"));
		assertThat(application.ordersOf(marker + "/saved-by-listener")).isOne();
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void eventPublishedByABeforeCommitListenerThatRunsBeforeTheCaptureIsDeliveredWithTheAggregateEvent(
			TestDatabase database) {
		Application application = application(database);
		String marker = unique("listener-first");

		// Registered first, with the same order as the capture's callback: it runs first.
		application.transactions.executeWithoutResult((status) -> {
			application.events.publishEvent(new PublishBeforeCommit(marker + "/listener"));
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/aggregate"));
		});

		application.assertDeliveredOnce(marker, List.of(marker + "/aggregate", marker + "/listener"));
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void eventsPublishedAndSavedByBeforeCommitListenersThatRunAfterTheCaptureAreDeliveredWithTheAggregateEvent(
			TestDatabase database) {
		Application application = application(database);
		String marker = unique("listener-last");

		// Registered after the capture's callback, with the same order: they run after it wrote its batch.
		application.transactions.executeWithoutResult((status) -> {
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/aggregate"));
			application.events.publishEvent(new PublishBeforeCommit(marker + "/listener"));
			application.events.publishEvent(new SaveBeforeCommit(marker + "/saved-by-listener"));
		});

		application.assertDeliveredOnce(marker,
				List.of(marker + "/aggregate", marker + "/listener", marker + "/saved-by-listener"));
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void eventPublishedAfterTheCommitIsRefusedWhateverTheOrderOfTheCallbacksAndTheThreadCapturesAgainAfterwards(
			TestDatabase database) {
		Application application = application(database);
		String marker = unique("after-commit");
		application.listeners.refusals.clear();

		// Nothing captured before: the listener's publish is the transaction's first.
		application.transactions.executeWithoutResult(
				(status) -> application.events.publishEvent(new PublishAfterCommit(marker + "/refused/alone")));
		// Captured before: the listener runs after the capture's callbacks.
		application.transactions.executeWithoutResult((status) -> {
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/aggregate/1"));
			application.events.publishEvent(new PublishAfterCommit(marker + "/refused/after-capture"));
		});
		// Captured before: an after-commit callback that runs before the capture's own.
		application.transactions.executeWithoutResult((status) -> {
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/aggregate/2"));
			TransactionSynchronizationManager
				.registerSynchronization(new FirstAfterCommit(application.outbox, application.listeners.refusals,
						marker + "/refused/before-capture"));
		});
		// The thread's next transaction captures as usual.
		application.transactions.executeWithoutResult(
				(status) -> application.outbox.publish("Ledger", marker, new InvoiceRequested(marker + "/next")));

		assertThat(application.listeners.refusals).hasSize(3)
			.allSatisfy((refusal) -> assertThat(refusal).hasMessageContaining("Event 'InvoiceRequested'")
				.hasMessageContaining("after its transaction"));
		application.assertDeliveredOnce(marker, List.of(marker + "/aggregate/1", marker + "/aggregate/2", marker + "/next"));
	}

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void eventPublishedInANewTransactionOfAnAfterCommitListenerIsDeliveredAndTheThreadCapturesAgainAfterwards(
			TestDatabase database) {
		Application application = application(database);
		String marker = unique("after-commit-new");

		application.transactions.executeWithoutResult((status) -> {
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/aggregate"));
			application.events.publishEvent(new PublishAfterCommitInNewTransaction(marker + "/new-transaction"));
		});
		application.transactions.executeWithoutResult(
				(status) -> application.outbox.publish("Ledger", marker, new InvoiceRequested(marker + "/next")));

		application.assertDeliveredOnce(marker,
				List.of(marker + "/aggregate", marker + "/new-transaction", marker + "/next"));
	}

	private static synchronized Application application(TestDatabase database) {
		return applications.computeIfAbsent(database, Application::new);
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/** Asks the listener to publish an outbox event before the commit. */
	record PublishBeforeCommit(String reference) {
	}

	/** Asks the listener to save an aggregate that registers an outbox event, before the commit. */
	record SaveBeforeCommit(String reference) {
	}

	/** Asks the listener to publish an outbox event after the commit, in the committed transaction. */
	record PublishAfterCommit(String reference) {
	}

	/** Asks the listener to publish an outbox event after the commit, in a new transaction. */
	record PublishAfterCommitInNewTransaction(String reference) {
	}

	/** The application's listeners, which turn its ordinary events into outbox events. */
	static class Listeners {

		final List<OutboxCaptureException> refusals = new CopyOnWriteArrayList<>();

		private final Outbox outbox;

		private final PurchaseOrderRepository orders;

		private final TransactionTemplate newTransactions;

		Listeners(Outbox outbox, PurchaseOrderRepository orders, PlatformTransactionManager transactionManager) {
			this.outbox = outbox;
			this.orders = orders;
			this.newTransactions = new TransactionTemplate(transactionManager);
			this.newTransactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		}

		@TransactionalEventListener(phase = TransactionPhase.BEFORE_COMMIT)
		void publish(PublishBeforeCommit event) {
			this.outbox.publish("Ledger", marker(event.reference()), new InvoiceRequested(event.reference()));
		}

		@TransactionalEventListener(phase = TransactionPhase.BEFORE_COMMIT)
		void save(SaveBeforeCommit event) {
			this.orders.save(new PurchaseOrder(event.reference()).requestInvoice(event.reference()));
		}

		@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
		void publishAfterCommit(PublishAfterCommit event) {
			try {
				this.outbox.publish("Ledger", marker(event.reference()), new InvoiceRequested(event.reference()));
			}
			catch (OutboxCaptureException ex) {
				this.refusals.add(ex);
			}
		}

		@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
		void publishInNewTransaction(PublishAfterCommitInNewTransaction event) {
			this.newTransactions.executeWithoutResult((status) -> this.outbox.publish("Ledger",
					marker(event.reference()), new InvoiceRequested(event.reference())));
		}

		private static String marker(String reference) {
			return reference.substring(0, reference.indexOf('/'));
		}

	}

	/** An after-commit callback ordered before every other, the capture's included. */
	private record FirstAfterCommit(Outbox outbox, List<OutboxCaptureException> refusals,
			String reference) implements TransactionSynchronization {

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

		@Override
		public void afterCommit() {
			try {
				this.outbox.publish(new InvoiceRequested(this.reference));
			}
			catch (OutboxCaptureException ex) {
				this.refusals.add(ex);
			}
		}

	}

	/** The orders application on one database, with the listeners and the capture tests' handler. */
	private static final class Application {

		private final ConfigurableApplicationContext context;

		private final TransactionTemplate transactions;

		private final ApplicationEventPublisher events;

		private final PurchaseOrderRepository orders;

		private final Outbox outbox;

		private final Listeners listeners;

		private final CapturedEvents captured;

		private final JdbcTemplate jdbc;

		Application(TestDatabase database) {
			database.dropTable(TABLE);
			List<String> properties = new ArrayList<>(List.of("test.topic=it-callbacks", "outbox.table-name=" + TABLE,
					"spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers()));
			properties.addAll(List.of(database.properties()));
			this.context = new SpringApplicationBuilder(OrdersTestApplication.class, CapturedEvents.class,
					Listeners.class)
				.web(WebApplicationType.NONE)
				.properties(properties.toArray(String[]::new))
				.run();
			this.transactions = this.context.getBean(TransactionTemplate.class);
			this.events = this.context;
			this.orders = this.context.getBean(PurchaseOrderRepository.class);
			this.outbox = this.context.getBean(Outbox.class);
			this.listeners = this.context.getBean(Listeners.class);
			this.captured = this.context.getBean(CapturedEvents.class);
			this.jdbc = this.context.getBean(JdbcTemplate.class);
		}

		int ordersOf(String customer) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM purchase_order WHERE customer = ?", Integer.class,
					customer);
		}

		int rowsMentioning(String marker) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE payload LIKE ?", Integer.class,
					"%" + marker + "%");
		}

		/**
		 * Asserts that exactly these events were written and delivered, each once, in any order.
		 */
		void assertDeliveredOnce(String marker, List<String> references) {
			assertThat(rowsMentioning(marker)).as("outbox rows").isEqualTo(references.size());
			List<Delivery> deliveries = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> this.captured.startingWith(marker), (found) -> found.size() >= references.size());
			assertThat(deliveries).extracting(Delivery::reference).containsExactlyInAnyOrderElementsOf(references);
		}

	}

}
