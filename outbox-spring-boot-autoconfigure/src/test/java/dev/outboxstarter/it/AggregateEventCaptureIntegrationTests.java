package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import javax.sql.DataSource;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.it.orders.CapturedEvents;
import dev.outboxstarter.it.orders.CapturedEvents.Delivery;
import dev.outboxstarter.it.orders.InvoiceRequested;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.it.orders.Parcel;
import dev.outboxstarter.it.orders.ParcelRepository;
import dev.outboxstarter.it.orders.PurchaseOrder;
import dev.outboxstarter.it.orders.PurchaseOrderRepository;
import dev.outboxstarter.it.orders.Voucher;
import dev.outboxstarter.it.orders.VoucherIssued;
import dev.outboxstarter.it.orders.VoucherRepository;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

/**
 * What the capture takes from JPA aggregates: the pending events of every aggregate the persistence
 * context manages when it is flushed (changed or not, saved, persisted, reached by a cascade, merged,
 * removed), each exactly once, on PostgreSQL, MariaDB and H2; and a transaction that flushes and then
 * rolls back is ordinary business, which logs nothing at WARN.
 */
class AggregateEventCaptureIntegrationTests {

	private static final String TABLE = "outbox_it_capture";

	private static final Map<TestDatabase, Application> applications = new EnumMap<>(TestDatabase.class);

	@AfterAll
	static void close() {
		applications.values().forEach((application) -> application.context.close());
		applications.clear();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventOfALoadedAggregateThatChangesNothingAndIsNeverSavedIsDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("invoice");
		Long id = application.newOrder(marker);

		application.inTransaction((entityManager) -> application.orders.findById(id)
			.orElseThrow()
			.requestInvoice(marker + "/1"));

		application.assertDeliveredOnce(marker, Map.of(id.toString(), List.of(marker + "/1")));
		assertThat(application.deliveries(marker)).allSatisfy((delivery) -> {
			assertThat(delivery.message().eventType()).isEqualTo("InvoiceRequested");
			assertThat(delivery.message().aggregateType()).isEqualTo("PurchaseOrder");
		});
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfAnAggregateStoredWithPersistAreDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("persist");

		Long id = application.fromTransaction((entityManager) -> {
			PurchaseOrder order = new PurchaseOrder(marker).requestInvoice(marker + "/1").requestInvoice(marker + "/2");
			entityManager.persist(order);
			return order.getId();
		});

		application.assertDeliveredOnce(marker, Map.of(id.toString(), List.of(marker + "/1", marker + "/2")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfANewChildReachedOnlyThroughTheCascadeOfASavedParentAreDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("cascade");
		Long existing = application.newOrder(marker + "-existing");

		// A new parent is persisted, and the cascade persists the child itself.
		Long persisted = application.fromTransaction((entityManager) -> {
			PurchaseOrder order = new PurchaseOrder(marker);
			order.planShipment(marker + "/persisted/1").dispatch(marker + "/persisted/2");
			return application.orders.save(order).getId();
		});
		// A loaded parent is merged, and the cascade stores a copy of the child, not the instance with the events.
		application.inTransaction((entityManager) -> {
			PurchaseOrder order = application.orders.findById(existing).orElseThrow();
			order.planShipment(marker + "/merged/1");
			application.orders.save(order);
		});

		Map<String, List<String>> byShipment = application.assertDelivered(marker, 3);
		assertThat(byShipment.values()).containsExactlyInAnyOrder(
				List.of(marker + "/persisted/1", marker + "/persisted/2"), List.of(marker + "/merged/1"));
		assertThat(application.deliveries(marker)).allSatisfy((delivery) -> {
			assertThat(delivery.message().aggregateType()).isEqualTo("Shipment");
			assertThat(delivery.message().aggregateId()).isNotNull();
		});
		assertThat(application.shipmentsOf(persisted)).isEqualTo(1);
		assertThat(application.shipmentsOf(existing)).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfANewAggregateWithAnAssignedIdPassedToSaveAreDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("voucher");

		application.inTransaction((entityManager) -> {
			Voucher voucher = new Voucher(marker).issue(marker + "/1").issue(marker + "/2");
			Voucher managed = application.vouchers.save(voucher);
			assertThat(managed).as("merged: the managed instance is a copy").isNotSameAs(voucher);
		});

		application.assertDeliveredOnce(marker, Map.of(marker, List.of(marker + "/1", marker + "/2")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfAnAggregatePassedToSaveReachListenersWhenSaveReturnsAlsoIfItMergesOrFlushes(TestDatabase database) {
		Application application = application(database);
		String marker = unique("save");

		Long id = application.fromTransaction((entityManager) -> {
			application.vouchers.save(new Voucher(marker).issue(marker + "/merged"));
			assertThat(application.captured.published()).contains(new VoucherIssued(marker + "/merged"));
			PurchaseOrder order = application.orders
				.saveAndFlush(new PurchaseOrder(marker).requestInvoice(marker + "/flushed"));
			assertThat(application.captured.published()).contains(new InvoiceRequested(marker + "/flushed"));
			return order.getId();
		});

		application.assertDeliveredOnce(marker,
				Map.of(marker, List.of(marker + "/merged"), id.toString(), List.of(marker + "/flushed")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void unserializableEventOfAnAggregateThatIsNeverSavedIsRefusedAndRollsTheTransactionBack(TestDatabase database) {
		Application application = application(database);
		String marker = unique("refused");
		Long id = application.newOrder(marker);

		// Found by the flush at commit, after every before-commit callback has run: the commit fails
		// because of it, and that is the application's error to report, not one for Hibernate to log.
		try (Warnings warnings = Warnings.record()) {
			assertThatException().isThrownBy(() -> application.inTransaction((entityManager) -> application.orders
				.findById(id)
				.orElseThrow()
				.changeStatus("REFUSED")
				.raise(new Unserializable(marker))))
				.satisfies((ex) -> assertThat(causes(ex)).filteredOn(OutboxCaptureException.class::isInstance)
					.singleElement()
					.extracting(Throwable::getMessage, as(STRING))
					.contains("Event 'Unserializable'")
					.contains("cannot be serialized to JSON"));
			assertThat(warnings.onThread(Thread.currentThread().getName())).isEmpty();
		}
		// Found by a flush in the business code: that flush throws it, as save() would.
		AtomicBoolean flushed = new AtomicBoolean();
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> application.inTransaction((entityManager) -> {
				application.orders.findById(id).orElseThrow().raise(new Unserializable(marker));
				entityManager.flush();
				flushed.set(true);
			}))
			.withMessageContaining("Event 'Unserializable'");
		assertThat(flushed).isFalse();

		assertThat(application.orders.findById(id).orElseThrow().getStatus()).isEqualTo("NEW");
		assertThat(application.rowsMentioning(marker)).isZero();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfAnAggregateSavedThenFlushedSeveralTimesAreDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("flushes");

		Long id = application.fromTransaction((entityManager) -> {
			PurchaseOrder order = application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/1"));
			entityManager.flush();
			order.requestInvoice(marker + "/2");
			entityManager.flush();
			entityManager.flush();
			order.changeStatus("CHANGED").requestInvoice(marker + "/3");
			application.orders.save(order);
			entityManager.flush();
			return order.getId();
		});

		application.assertDeliveredOnce(marker,
				Map.of(id.toString(), List.of(marker + "/1", marker + "/2", marker + "/3")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfAnAggregateRemovedWithTheEntityManagerAreDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("removed");
		Long id = application.newOrder(marker);

		application.inTransaction((entityManager) -> {
			PurchaseOrder order = entityManager.find(PurchaseOrder.class, id);
			entityManager.remove(order.requestInvoice(marker + "/1"));
		});

		application.assertDeliveredOnce(marker, Map.of(id.toString(), List.of(marker + "/1")));
		assertThat(application.orders.findById(id)).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfAnAggregateThatNeverClearsThemAreDeliveredOnce(TestDatabase database) {
		Application application = application(database);
		String marker = unique("parcel");

		Long id = application.fromTransaction((entityManager) -> {
			Parcel parcel = application.parcels.save(new Parcel(marker).scan(marker + "/1"));
			entityManager.flush();
			parcel.scan(marker + "/2");
			entityManager.flush();
			return parcel.getId();
		});
		application.inTransaction((entityManager) -> {
			Parcel parcel = application.parcels.findById(id).orElseThrow().scan(marker + "/3");
			entityManager.flush();
			parcel.scan(marker + "/4");
		});

		application.assertDeliveredOnce(marker,
				Map.of(id.toString(), List.of(marker + "/1", marker + "/2", marker + "/3", marker + "/4")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void mixedTransactionDeliversEveryEventOnceInRegistrationOrderPerAggregate(TestDatabase database) {
		Application application = application(database);
		String marker = unique("mixed");
		Long unchanged = application.newOrder(marker + "-unchanged");

		List<Long> ids = application.fromTransaction((entityManager) -> {
			PurchaseOrder saved = application.orders
				.save(new PurchaseOrder(marker).requestInvoice(marker + "/saved/1").requestInvoice(marker + "/saved/2"));
			PurchaseOrder persisted = new PurchaseOrder(marker).requestInvoice(marker + "/persisted/1");
			entityManager.persist(persisted);
			persisted.requestInvoice(marker + "/persisted/2");
			PurchaseOrder loaded = application.orders.findById(unchanged).orElseThrow();
			loaded.requestInvoice(marker + "/unchanged/1");
			saved.requestInvoice(marker + "/saved/3");
			PurchaseOrder parent = new PurchaseOrder(marker).requestInvoice(marker + "/parent/1");
			parent.planShipment(marker + "/child/1").dispatch(marker + "/child/2");
			application.orders.save(parent);
			loaded.requestInvoice(marker + "/unchanged/2");
			return List.of(saved.getId(), persisted.getId(), parent.getId());
		});

		Map<String, List<String>> byAggregate = application.assertDelivered(marker, 10);
		assertThat(byAggregate).containsEntry(ids.get(0).toString(),
				List.of(marker + "/saved/1", marker + "/saved/2", marker + "/saved/3"));
		assertThat(byAggregate).containsEntry(ids.get(1).toString(),
				List.of(marker + "/persisted/1", marker + "/persisted/2"));
		assertThat(byAggregate).containsEntry(unchanged.toString(),
				List.of(marker + "/unchanged/1", marker + "/unchanged/2"));
		assertThat(byAggregate).containsEntry(ids.get(2).toString(), List.of(marker + "/parent/1"));
		assertThat(byAggregate).containsValue(List.of(marker + "/child/1", marker + "/child/2"));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfAnInnerRequiresNewTransactionAreDeliveredWithItsCommitWhateverTheOuterOneDoes(TestDatabase database) {
		Application application = application(database);
		String marker = unique("requires-new");

		List<Long> rolledBackOuter = new ArrayList<>();
		assertThatExceptionOfType(RolledBack.class).isThrownBy(() -> application.inTransaction((entityManager) -> {
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/rolled-back-outer/1"));
			rolledBackOuter.add(application.inNewTransaction(() -> application.orders
				.save(new PurchaseOrder(marker).requestInvoice(marker + "/inner-of-rolled-back/1"))
				.getId()));
			application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/rolled-back-outer/2"));
			throw new RolledBack();
		}));
		List<Long> committedOuter = application.fromTransaction((entityManager) -> {
			Long outer = application.orders.save(new PurchaseOrder(marker).requestInvoice(marker + "/outer/1")).getId();
			Long inner = application.inNewTransaction(() -> application.orders
				.save(new PurchaseOrder(marker).requestInvoice(marker + "/inner/1"))
				.getId());
			application.orders.findById(outer).orElseThrow().requestInvoice(marker + "/outer/2");
			return List.of(outer, inner);
		});

		application.assertDeliveredOnce(marker,
				Map.of(rolledBackOuter.get(0).toString(), List.of(marker + "/inner-of-rolled-back/1"),
						committedOuter.get(0).toString(), List.of(marker + "/outer/1", marker + "/outer/2"),
						committedOuter.get(1).toString(), List.of(marker + "/inner/1")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void eventsOfANestedTransactionThatRollsBackToItsSavepointAreNotDelivered(TestDatabase database) {
		Application application = application(database);
		String marker = unique("nested");

		// JPA's transaction manager has no nested transactions: plain JDBC code, as Outbox serves it, has.
		application.inJdbcTransaction(() -> {
			application.outbox.publish("Ledger", marker, new InvoiceRequested(marker + "/before"));
			assertThatExceptionOfType(RolledBack.class).isThrownBy(() -> application.inNestedTransaction(() -> {
				application.outbox.publish("Ledger", marker, new InvoiceRequested(marker + "/rolled-back"));
				throw new RolledBack();
			}));
			application.inNestedTransaction(() -> application.outbox.publish("Ledger", marker,
					new InvoiceRequested(marker + "/nested")));
			application.outbox.publish("Ledger", marker, new InvoiceRequested(marker + "/after"));
		});

		application.assertDeliveredOnce(marker,
				Map.of(marker, List.of(marker + "/before", marker + "/nested", marker + "/after")));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void commitsAndFlushedThenRolledBackTransactionsUnderConcurrencyLogNothingAtWarn(TestDatabase database)
			throws Exception {
		Application application = application(database);
		String marker = unique("quiet");
		int threads = 3;
		int transactionsPerThread = 40;
		List<Long> orders = new ArrayList<>();
		for (int thread = 0; thread < threads; thread++) {
			orders.add(application.newOrder(marker + "-" + thread));
		}
		ExecutorService executor = Executors.newFixedThreadPool(threads, (task) -> new Thread(task, "quiet-logs"));
		List<String> committed = new ArrayList<>();
		try (Warnings warnings = Warnings.record()) {
			List<Future<List<String>>> results = new ArrayList<>();
			for (int thread = 0; thread < threads; thread++) {
				Long id = orders.get(thread);
				String prefix = marker + "/" + thread + "/";
				results.add(executor.submit(() -> application.commitOrRollBack(id, prefix, transactionsPerThread)));
			}
			for (Future<List<String>> result : results) {
				committed.addAll(result.get());
			}
			assertThat(warnings.onThread("quiet-logs")).isEmpty();
		}
		finally {
			executor.shutdownNow();
		}

		assertThat(committed).hasSize(threads * transactionsPerThread * 3 / 4);
		assertThat(application.rowsMentioning(marker)).isEqualTo(committed.size());
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> application.deliveries(marker).size() == committed.size());
		assertThat(application.deliveries(marker)).extracting(Delivery::reference)
			.containsExactlyInAnyOrderElementsOf(committed);
	}

	private static List<Throwable> causes(Throwable ex) {
		return Stream.iterate(ex, Objects::nonNull, Throwable::getCause).toList();
	}

	private static synchronized Application application(TestDatabase database) {
		return applications.computeIfAbsent(database, Application::new);
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/**
	 * The orders application on one database, with the capture tests' in-process handler.
	 */
	private static final class Application {

		private final ConfigurableApplicationContext context;

		private final TransactionTemplate transactions;

		private final EntityManager entityManager;

		private final PurchaseOrderRepository orders;

		private final VoucherRepository vouchers;

		private final ParcelRepository parcels;

		private final JdbcTemplate jdbc;

		private final CapturedEvents captured;

		private final Outbox outbox;

		private final TransactionTemplate newTransactions;

		private final TransactionTemplate jdbcTransactions;

		private final TransactionTemplate nestedTransactions;

		Application(TestDatabase database) {
			database.dropTable(TABLE);
			List<String> properties = new ArrayList<>(List.of("test.topic=it-capture", "outbox.table-name=" + TABLE,
					"spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers(),
					"spring.datasource.hikari.maximum-pool-size=8"));
			properties.addAll(List.of(database.properties()));
			this.context = new SpringApplicationBuilder(OrdersTestApplication.class, CapturedEvents.class)
				.web(WebApplicationType.NONE)
				.properties(properties.toArray(String[]::new))
				.run();
			this.transactions = this.context.getBean(TransactionTemplate.class);
			this.entityManager = SharedEntityManagerCreator
				.createSharedEntityManager(this.context.getBean(EntityManagerFactory.class));
			this.orders = this.context.getBean(PurchaseOrderRepository.class);
			this.vouchers = this.context.getBean(VoucherRepository.class);
			this.parcels = this.context.getBean(ParcelRepository.class);
			this.jdbc = this.context.getBean(JdbcTemplate.class);
			this.captured = this.context.getBean(CapturedEvents.class);
			this.outbox = this.context.getBean(Outbox.class);
			PlatformTransactionManager transactionManager = this.context.getBean(PlatformTransactionManager.class);
			this.newTransactions = new TransactionTemplate(transactionManager);
			this.newTransactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
			DataSourceTransactionManager jdbcTransactionManager = new DataSourceTransactionManager(
					this.context.getBean(DataSource.class));
			this.jdbcTransactions = new TransactionTemplate(jdbcTransactionManager);
			this.nestedTransactions = new TransactionTemplate(jdbcTransactionManager);
			this.nestedTransactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
		}

		void inJdbcTransaction(Runnable work) {
			this.jdbcTransactions.executeWithoutResult((status) -> work.run());
		}

		<T> T inNewTransaction(Supplier<T> work) {
			return this.newTransactions.execute((status) -> work.get());
		}

		void inNestedTransaction(Runnable work) {
			this.nestedTransactions.executeWithoutResult((status) -> work.run());
		}

		<T> T fromTransaction(Function<EntityManager, T> work) {
			return this.transactions.execute((status) -> work.apply(this.entityManager));
		}

		void inTransaction(Consumer<EntityManager> work) {
			this.transactions.executeWithoutResult((status) -> work.accept(this.entityManager));
		}

		Long newOrder(String customer) {
			return fromTransaction((entityManager) -> this.orders.save(new PurchaseOrder(customer)).getId());
		}

		/**
		 * Runs transactions on one order: each changes it, raises an event and flushes; every fourth
		 * then rolls back.
		 * @return the references of the events of the transactions that committed
		 */
		List<String> commitOrRollBack(Long id, String prefix, int count) {
			List<String> committed = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String reference = prefix + i;
				boolean rollBack = i % 4 == 3;
				try {
					inTransaction((entityManager) -> {
						PurchaseOrder order = this.orders.findById(id).orElseThrow();
						order.changeStatus("STEP-" + reference).requestInvoice(reference);
						entityManager.persist(new PurchaseOrder(reference));
						entityManager.flush();
						if (rollBack) {
							throw new RolledBack();
						}
					});
					committed.add(reference);
				}
				catch (RolledBack ex) {
					// An ordinary business outcome.
				}
			}
			return committed;
		}

		List<Delivery> deliveries(String marker) {
			return this.captured.startingWith(marker);
		}

		int rowsMentioning(String marker) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE payload LIKE ?", Integer.class,
					"%" + marker + "%");
		}

		int shipmentsOf(Long orderId) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM shipment WHERE order_id = ?", Integer.class, orderId);
		}

		/**
		 * Asserts that exactly {@code count} events were captured and delivered, each once.
		 * @return the references delivered per aggregate id, in delivery order
		 */
		Map<String, List<String>> assertDelivered(String marker, int count) {
			assertThat(rowsMentioning(marker)).as("outbox rows").isEqualTo(count);
			List<Delivery> deliveries = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> deliveries(marker), (found) -> found.size() >= count);
			assertThat(deliveries).hasSize(count);
			assertThat(deliveries).extracting(Delivery::reference).doesNotHaveDuplicates();
			assertThat(deliveries).extracting((delivery) -> delivery.message().id()).doesNotHaveDuplicates();
			Map<String, List<String>> byAggregate = new LinkedHashMap<>();
			for (Delivery delivery : deliveries) {
				OutboxMessage message = delivery.message();
				byAggregate.computeIfAbsent(message.aggregateId(), (id) -> new ArrayList<>()).add(delivery.reference());
			}
			return byAggregate;
		}

		void assertDeliveredOnce(String marker, Map<String, List<String>> expected) {
			int count = expected.values().stream().mapToInt(List::size).sum();
			assertThat(assertDelivered(marker, count)).isEqualTo(expected);
		}

	}

	/**
	 * Records what Hibernate and the starter log at WARN or above while it is open.
	 */
	private static final class Warnings implements AutoCloseable {

		private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

		private final Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory())
			.getLogger(Logger.ROOT_LOGGER_NAME);

		static Warnings record() {
			Warnings warnings = new Warnings();
			warnings.appender.start();
			warnings.root.addAppender(warnings.appender);
			return warnings;
		}

		/**
		 * The messages logged on a thread (other applications of the test run log on threads of their own).
		 */
		List<String> onThread(String thread) {
			return this.appender.list.stream()
				.filter((event) -> event.getLevel().isGreaterOrEqual(Level.WARN))
				.filter((event) -> event.getThreadName().equals(thread))
				.filter((event) -> event.getLoggerName().startsWith("org.hibernate")
						|| event.getLoggerName().startsWith("dev.outboxstarter"))
				.map((event) -> event.getLoggerName() + ": " + event.getFormattedMessage())
				.toList();
		}

		@Override
		public void close() {
			this.root.detachAppender(this.appender);
			this.appender.stop();
		}

	}

	/** Jackson cannot read its property. */
	@OutboxEvent(transport = "local", destination = CapturedEvents.DESTINATION)
	static class Unserializable {

		private final String reference;

		Unserializable(String reference) {
			this.reference = reference;
		}

		public String getReference() {
			return this.reference;
		}

		public String getValue() {
			throw new IllegalStateException("value is not readable");
		}

	}

	private static final class RolledBack extends RuntimeException {

		RolledBack() {
			super("rolled back on purpose", null, false, false);
		}

	}

}
