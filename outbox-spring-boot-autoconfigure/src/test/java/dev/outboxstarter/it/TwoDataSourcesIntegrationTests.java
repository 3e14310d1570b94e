package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import dev.outboxstarter.it.twodatabases.BusinessRuleViolated;
import dev.outboxstarter.it.twodatabases.TwoDatabasesTestApplication;
import dev.outboxstarter.it.twodatabases.billing.InvoiceRepository;
import dev.outboxstarter.it.twodatabases.billing.InvoiceService;
import dev.outboxstarter.it.twodatabases.orders.CustomerOrderRepository;
import dev.outboxstarter.it.twodatabases.orders.OrderService;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An application with two databases, each with a JPA unit and a transaction manager of its own: every
 * data source that transactions run on has an outbox of its own. An event raised in a transaction is
 * written to the outbox table of the database that transaction runs on, commits or rolls back with it,
 * and is delivered from there once, in order per key. Orders on PostgreSQL (the primary data source),
 * invoices on MariaDB, each to a topic of its own, keyed by customer.
 */
class TwoDataSourcesIntegrationTests {

	private static final String TABLE = "outbox_it_two_databases";

	private static final String ORDERS_TOPIC = "it-two-databases-orders";

	private static final String INVOICES_TOPIC = "it-two-databases-invoices";

	private static final JsonMapper json = new JsonMapper();

	private static ConfigurableApplicationContext context;

	private static TopicRecorder ordersTopic;

	private static TopicRecorder invoicesTopic;

	@BeforeAll
	static void start() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestDatabase.MARIADB.dropTable(TABLE);
		TestKafka.createTopic(ORDERS_TOPIC, 3);
		TestKafka.createTopic(INVOICES_TOPIC, 3);
		context = new SpringApplicationBuilder(TwoDatabasesTestApplication.class).web(WebApplicationType.NONE)
			.properties(properties())
			.run();
		ordersTopic = new TopicRecorder(TestKafka.bootstrapServers(), ORDERS_TOPIC);
		invoicesTopic = new TopicRecorder(TestKafka.bootstrapServers(), INVOICES_TOPIC);
	}

	private static String[] properties() {
		TestDatabase billing = TestDatabase.MARIADB;
		List<String> properties = new ArrayList<>(List.of("outbox.table-name=" + TABLE,
				"outbox.cleanup.published-retention=1h", "outbox.relay.poll-interval=200ms",
				"spring.kafka.bootstrap-servers=" + TestKafka.bootstrapServers(), "test.orders-topic=" + ORDERS_TOPIC,
				"test.invoices-topic=" + INVOICES_TOPIC, "billing.datasource.url=" + billing.url(),
				"billing.datasource.username=" + billing.username(),
				"billing.datasource.password=" + billing.password()));
		properties.addAll(List.of(TestDatabase.POSTGRESQL.properties()));
		return properties.toArray(String[]::new);
	}

	@AfterAll
	static void close() {
		if (context != null) {
			context.close();
		}
		if (ordersTopic != null) {
			ordersTopic.close();
		}
		if (invoicesTopic != null) {
			invoicesTopic.close();
		}
	}

	@Test
	void eventsOfEachDatabaseAreWrittenToThatDatabasesOutboxAndDeliveredOnceInOrderPerKey() {
		String run = unique("ordered");
		List<String> customers = List.of(run + "-ada", run + "-bob", run + "-cy");
		int perCustomer = 10;

		// Each customer's orders and invoices alternate, and the customers' transactions interleave.
		for (int sequence = 0; sequence < perCustomer; sequence++) {
			for (String customer : customers) {
				orders().place(run, customer, sequence);
				invoices().issue(run, customer, sequence);
			}
		}

		List<Event> expected = customers.stream()
			.flatMap((customer) -> IntStream.range(0, perCustomer).mapToObj((sequence) -> new Event(run, customer, sequence)))
			.toList();
		int total = customers.size() * perCustomer;
		List<Received> orders = awaitReceived(ordersTopic, run, total);
		List<Received> invoices = awaitReceived(invoicesTopic, run, total);
		for (List<Received> received : List.of(orders, invoices)) {
			assertThat(received).extracting(TwoDataSourcesIntegrationTests::event)
				.containsExactlyInAnyOrderElementsOf(expected);
			assertThat(received).allSatisfy((record) -> assertThat(record.key()).isEqualTo(event(record).customer()));
			assertThat(sequencesByCustomer(received)).containsOnlyKeys(customers)
				.allSatisfy((customer, sequences) -> assertThat(sequences).as(customer)
					.isEqualTo(IntStream.range(0, perCustomer).boxed().toList()));
		}
		assertThat(outboxEvents(TestDatabase.POSTGRESQL, run)).as("PostgreSQL's outbox")
			.containsExactlyInAnyOrderElementsOf(rows(ORDERS_TOPIC, expected));
		assertThat(outboxEvents(TestDatabase.MARIADB, run)).as("MariaDB's outbox")
			.containsExactlyInAnyOrderElementsOf(rows(INVOICES_TOPIC, expected));
	}

	@Test
	void aRollbackInOneDatabasePublishesNothingWhileTheOtherDatabasesEventsGoOut() {
		String run = unique("rollback");
		String billingRollsBack = run + "-billing-rolls-back";
		String ordersRollBack = run + "-orders-roll-back";

		assertThatExceptionOfType(BusinessRuleViolated.class)
			.isThrownBy(() -> invoices().issueThenFail(run, billingRollsBack, 0));
		orders().place(run, billingRollsBack, 0);
		// Committed after the rollback in the same database: delivered after anything earlier of its key.
		invoices().issue(run, billingRollsBack, 1);

		assertThatExceptionOfType(BusinessRuleViolated.class)
			.isThrownBy(() -> orders().placeThenFail(run, ordersRollBack, 0));
		invoices().issue(run, ordersRollBack, 0);
		orders().place(run, ordersRollBack, 1);

		List<Received> orders = awaitReceived(ordersTopic, run, 2);
		List<Received> invoices = awaitReceived(invoicesTopic, run, 2);
		assertThat(orders).extracting(TwoDataSourcesIntegrationTests::event)
			.containsExactlyInAnyOrder(new Event(run, billingRollsBack, 0), new Event(run, ordersRollBack, 1));
		assertThat(invoices).extracting(TwoDataSourcesIntegrationTests::event)
			.containsExactlyInAnyOrder(new Event(run, billingRollsBack, 1), new Event(run, ordersRollBack, 0));
		assertThat(outboxEvents(TestDatabase.POSTGRESQL, run)).as("PostgreSQL's outbox")
			.containsExactlyInAnyOrder(new Row(ORDERS_TOPIC, new Event(run, billingRollsBack, 0)),
					new Row(ORDERS_TOPIC, new Event(run, ordersRollBack, 1)));
		assertThat(outboxEvents(TestDatabase.MARIADB, run)).as("MariaDB's outbox")
			.containsExactlyInAnyOrder(new Row(INVOICES_TOPIC, new Event(run, billingRollsBack, 1)),
					new Row(INVOICES_TOPIC, new Event(run, ordersRollBack, 0)));
		assertThat(context.getBean(InvoiceRepository.class).findByCustomer(billingRollsBack)).hasSize(1);
		assertThat(context.getBean(CustomerOrderRepository.class).findByCustomer(ordersRollBack)).hasSize(1);
	}

	/**
	 * Waits until a topic holds at least {@code count} events of the run, then reads it to its end.
	 * @return every record of the run, in the order each partition delivered it
	 */
	private static List<Received> awaitReceived(TopicRecorder topic, String run, int count) {
		Predicate<Received> ofRun = (record) -> event(record).run().equals(run);
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> topic.poll().stream().filter(ofRun).count() >= count);
		return topic.pollToEnd().stream().filter(ofRun).toList();
	}

	private static Map<String, List<Integer>> sequencesByCustomer(List<Received> received) {
		Map<String, List<Integer>> sequences = new LinkedHashMap<>();
		for (Received record : received) {
			Event event = event(record);
			sequences.computeIfAbsent(event.customer(), (customer) -> new ArrayList<>()).add(event.sequence());
		}
		return sequences;
	}

	/** The events of the run in a database's outbox table, read straight from that database. */
	private static List<Row> outboxEvents(TestDatabase database, String run) {
		return new JdbcTemplate(database.dataSource()).query(
				"SELECT destination, payload FROM " + TABLE + " WHERE payload LIKE ?",
				(rs, index) -> new Row(rs.getString("destination"), json.readValue(rs.getString("payload"), Event.class)),
				"%" + run + "%");
	}

	private static List<Row> rows(String destination, List<Event> events) {
		return events.stream().map((event) -> new Row(destination, event)).toList();
	}

	private static Event event(Received record) {
		return json.readValue(record.value(), Event.class);
	}

	private static OrderService orders() {
		return context.getBean(OrderService.class);
	}

	private static InvoiceService invoices() {
		return context.getBean(InvoiceService.class);
	}

	private static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/** The payload of an order or invoice event. */
	record Event(String run, String customer, int sequence) {
	}

	/** An outbox row: where it goes and what it holds. */
	record Row(String destination, Event event) {
	}

}
