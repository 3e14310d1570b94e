package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.outboxstarter.core.publish.OutboxMessage;
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
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the capture takes from JPA aggregates: the pending events of every aggregate the persistence
 * context manages when it is flushed (changed or not, saved, persisted, reached by a cascade, merged,
 * removed), each exactly once, on PostgreSQL, MariaDB and H2.
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

}
