package dev.outboxstarter.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.it.orders.PurchaseOrder;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.RabbitTestBroker.QueueRecorder;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The RabbitMQ transport end to end, on PostgreSQL and the real broker: what a consumer receives for
 * each destination form, and how refusals by the broker (returns, nacks) are retried and end DEAD.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.exchange=" + RabbitOutboxIntegrationTests.EXCHANGE,
				"test.fanout=" + RabbitOutboxIntegrationTests.FANOUT, "test.queue=" + RabbitOutboxIntegrationTests.QUEUE,
				"outbox.table-name=" + RabbitOutboxIntegrationTests.TABLE,
				"outbox.rabbit.enabled=true", "spring.rabbitmq.publisher-confirm-type=correlated",
				"spring.rabbitmq.publisher-returns=true",
				"outbox.relay.poll-interval=100ms", "outbox.retry.initial-delay=100ms", "outbox.retry.max-delay=200ms",
				"outbox.retry.max-attempts=3", "outbox.cloudevents.source=https://acme.example/orders" })
class RabbitOutboxIntegrationTests {

	static final String EXCHANGE = "it-rabbit-orders";

	static final String FANOUT = "it-rabbit-notifications";

	static final String QUEUE = "it-rabbit-invoices";

	static final String TABLE = "outbox_it_rabbit";

	private static QueueRecorder placed;

	private static QueueRecorder refusing;

	private static QueueRecorder invoices;

	private static QueueRecorder notificationsA;

	private static QueueRecorder notificationsB;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		RabbitTestBroker.deleteExchange(EXCHANGE);
		RabbitTestBroker.deleteExchange(FANOUT);
		RabbitTestBroker.deleteQueue(QUEUE);
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		RabbitTestBroker.register(registry, RabbitTestBroker.PORT);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@BeforeAll
	static void declareQueues() {
		// The application's business, declared here as a consumer would: the outbox declares nothing.
		RabbitTestBroker.declareExchange(EXCHANGE, "topic", false);
		RabbitTestBroker.declareExchange(FANOUT, "fanout", false);
		placed = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-rabbit-placed"), EXCHANGE, "orders.placed",
				Map.of());
		// Takes no message: RabbitMQ nacks what is routed to it.
		refusing = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-rabbit-refusing"), EXCHANGE,
				"orders.refused", Map.of("x-max-length", 0, "x-overflow", "reject-publish"));
		invoices = RabbitTestBroker.record(QUEUE, "", "", Map.of());
		notificationsA = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-rabbit-notified-a"), FANOUT, "",
				Map.of());
		notificationsB = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-rabbit-notified-b"), FANOUT, "",
				Map.of());
	}

	@AfterAll
	static void deleteQueues() {
		for (QueueRecorder recorder : List.of(placed, refusing, invoices, notificationsA, notificationsB)) {
			recorder.close();
		}
		RabbitTestBroker.deleteExchange(EXCHANGE);
		RabbitTestBroker.deleteExchange(FANOUT);
	}

	@Test
	void aggregateEventArrivesInTheBoundQueueAsAPersistentJsonMessageWithTheOutboxHeaders() {
		String customer = unique("alice");
		PurchaseOrder order = this.orders.place(customer, new RabbitOrderPlaced(customer, 1));

		Message message = awaitReceived(placed, customer, 1).get(0);
		String outboxId = this.jdbc.queryForObject("SELECT CAST(id AS VARCHAR(36)) FROM " + TABLE + " WHERE payload LIKE ?",
				String.class, "%" + customer + "%");
		MessageProperties properties = message.getMessageProperties();
		assertThat(new String(message.getBody(), StandardCharsets.UTF_8))
			.isEqualTo("{\"customer\":\"" + customer + "\",\"line\":1}");
		assertThat(properties.getContentType()).isEqualTo("application/json");
		assertThat(properties.getContentEncoding()).isEqualTo("UTF-8");
		assertThat(properties.getReceivedDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
		assertThat(properties.getMessageId()).isEqualTo(outboxId);
		assertThat(properties.getType()).isEqualTo("order-placed");
		assertThat(properties.getReceivedExchange()).isEqualTo(EXCHANGE);
		assertThat(properties.getReceivedRoutingKey()).isEqualTo("orders.placed");
		Map<String, Object> headers = properties.getHeaders();
		assertThat(header(headers, OutboxHeaders.MESSAGE_ID)).isEqualTo(outboxId);
		assertThat(UUID.fromString(outboxId).version()).isEqualTo(7);
		assertThat(header(headers, OutboxHeaders.EVENT_TYPE)).isEqualTo("order-placed");
		assertThat(header(headers, OutboxHeaders.AGGREGATE_TYPE)).isEqualTo("PurchaseOrder");
		assertThat(header(headers, OutboxHeaders.AGGREGATE_ID)).isEqualTo(order.getId().toString());
		assertThat(header(headers, OutboxHeaders.MESSAGE_KEY)).isEqualTo(order.getId().toString());
		Instant occurredAt = Instant.parse(header(headers, OutboxHeaders.OCCURRED_AT));
		assertThat(occurredAt).isBetween(Instant.now().minusSeconds(60), Instant.now());
		// AMQP timestamps are whole seconds.
		assertThat(properties.getTimestamp().toInstant()).isEqualTo(occurredAt.truncatedTo(ChronoUnit.SECONDS));
		assertThat(headers.keySet()).as("no CloudEvents header in the outbox format")
			.noneMatch((name) -> name.startsWith("cloudEvents") || name.startsWith("ce_"));
		await().atMost(Duration.ofSeconds(10)).until(() -> status(customer).equals("PUBLISHED"));
	}

	@Test
	void eventInTheCloudEventsFormatCarriesTheAmqpBindingsApplicationPropertiesAndJsonContentType() {
		String customer = unique("ce");
		PurchaseOrder order = this.orders.place(customer, new RabbitOrderShipped(customer));

		Message message = awaitReceived(placed, customer, 1).get(0);
		String outboxId = this.jdbc.queryForObject("SELECT CAST(id AS VARCHAR(36)) FROM " + TABLE + " WHERE payload LIKE ?",
				String.class, "%" + customer + "%");
		MessageProperties properties = message.getMessageProperties();
		Map<String, Object> headers = properties.getHeaders();
		assertThat(header(headers, "cloudEvents:id")).isEqualTo(outboxId);
		assertThat(header(headers, "cloudEvents:source")).isEqualTo("https://acme.example/orders");
		assertThat(header(headers, "cloudEvents:specversion")).isEqualTo("1.0");
		assertThat(header(headers, "cloudEvents:type")).isEqualTo("com.acme.orders.order-shipped");
		assertThat(header(headers, "cloudEvents:subject")).isEqualTo(order.getId().toString());
		assertThat(Instant.parse(header(headers, "cloudEvents:time")))
			.isEqualTo(Instant.parse(header(headers, OutboxHeaders.OCCURRED_AT)))
			.isBetween(Instant.now().minusSeconds(60), Instant.now());
		assertThat(headers.keySet()).filteredOn((name) -> name.startsWith("cloudEvents:"))
			.containsExactlyInAnyOrder("cloudEvents:id", "cloudEvents:source", "cloudEvents:specversion",
					"cloudEvents:type", "cloudEvents:subject", "cloudEvents:time");
		assertThat(headers.keySet()).as("stored as ce_ headers, sent in the AMQP binding's names")
			.noneMatch((name) -> name.startsWith("ce_"));
		assertThat(properties.getContentType()).isEqualTo("application/json");
		assertThat(body(message)).isEqualTo("{\"customer\":\"" + customer + "\"}");
		assertThat(header(headers, OutboxHeaders.MESSAGE_ID)).as("the outbox headers stay").isEqualTo(outboxId);
		assertThat(properties.getMessageId()).isEqualTo(outboxId);
	}

	@Test
	void destinationWithAnEmptyExchangeGoesThroughTheDefaultExchangeToTheQueueNamedByTheRoutingKey() {
		String customer = unique("bob");
		this.orders.place(customer, new RabbitInvoiceIssued(customer));

		Message message = awaitReceived(invoices, customer, 1).get(0);
		assertThat(message.getMessageProperties().getReceivedExchange()).isEmpty();
		assertThat(message.getMessageProperties().getReceivedRoutingKey()).isEqualTo(QUEUE);
		assertThat(header(message.getMessageProperties().getHeaders(), OutboxHeaders.MESSAGE_KEY))
			.isEqualTo(customer);
	}

	@Test
	void destinationWithoutASlashIsAnExchangeWithAnEmptyRoutingKey() {
		String customer = unique("carol");
		this.orders.place(customer, new RabbitCustomerNotified(customer));

		for (QueueRecorder queue : List.of(notificationsA, notificationsB)) {
			Message message = awaitReceived(queue, customer, 1).get(0);
			assertThat(message.getMessageProperties().getReceivedExchange()).isEqualTo(FANOUT);
			assertThat(message.getMessageProperties().getReceivedRoutingKey()).isEmpty();
		}
	}

	@Test
	void unroutableEventIsRetriedAndEndsDeadWithTheReturnInLastError() {
		String customer = unique("dave");
		this.orders.place(customer, new RabbitOrderUnroutable(customer));

		await().atMost(Duration.ofSeconds(30)).until(() -> status(customer).equals("DEAD"));
		Map<String, Object> row = row(customer);
		assertThat(row.get("attempts")).isEqualTo(3);
		assertThat(row.get("published_at")).isNull();
		assertThat((String) row.get("last_error")).contains("returned as unroutable")
			.contains("exchange '" + EXCHANGE + "'")
			.contains("routing key 'orders.unbound'")
			.contains("312 NO_ROUTE");
		assertThat(placed.poll()).noneMatch((message) -> body(message).contains(customer));
	}

	@Test
	void eventTheBrokerRefusesWithANackIsRetriedAndEndsDead() {
		String customer = unique("erin");
		this.orders.place(customer, new RabbitOrderRefused(customer));

		await().atMost(Duration.ofSeconds(30)).until(() -> status(customer).equals("DEAD"));
		Map<String, Object> row = row(customer);
		assertThat(row.get("attempts")).isEqualTo(3);
		assertThat((String) row.get("last_error")).contains("was not acknowledged by the broker")
			.contains("routing key 'orders.refused'");
		assertThat(refusing.poll()).isEmpty();
	}

	@Test
	void burstOfEventsIsPublishedOnceEach() {
		String prefix = unique("burst");
		for (int i = 0; i < 50; i++) {
			this.orders.place(prefix + "-" + i, new RabbitOrderPlaced(prefix + "-" + i, i));
		}

		List<Message> received = awaitReceived(placed, prefix, 50);
		assertThat(received).extracting((message) -> message.getMessageProperties().getMessageId())
			.doesNotHaveDuplicates();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE
					+ " WHERE status = 'PUBLISHED' AND payload LIKE ?", Integer.class, "%" + prefix + "%") == 50);
		assertThat(placed.poll().stream().filter((message) -> body(message).contains(prefix))).hasSize(50);
	}

	private static List<Message> awaitReceived(QueueRecorder queue, String marker, int count) {
		return await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> queue.poll().stream().filter((message) -> body(message).contains(marker)).toList(),
					(messages) -> messages.size() >= count);
	}

	private String status(String marker) {
		return (String) row(marker).get("status");
	}

	private Map<String, Object> row(String marker) {
		return this.jdbc.queryForMap(
				"SELECT status, attempts, last_error, published_at FROM " + TABLE + " WHERE payload LIKE ?",
				"%" + marker + "%");
	}

	private static String header(Map<String, Object> headers, String name) {
		Object value = headers.get(name);
		return (value != null) ? value.toString() : null;
	}

	private static String body(Message message) {
		return new String(message.getBody(), StandardCharsets.UTF_8);
	}

	private static final AtomicInteger sequence = new AtomicInteger();

	private static String unique(String name) {
		return name + "-" + sequence.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	@OutboxEvent(transport = "rabbit", destination = "${test.exchange}/orders.placed", type = "order-placed")
	record RabbitOrderPlaced(String customer, int line) {
	}

	@OutboxEvent(transport = "rabbit", destination = "${test.exchange}/orders.placed",
			type = "com.acme.orders.order-shipped", format = "cloudevents")
	record RabbitOrderShipped(String customer) {
	}

	@OutboxEvent(transport = "rabbit", destination = "${test.exchange}/orders.unbound")
	record RabbitOrderUnroutable(String customer) {
	}

	@OutboxEvent(transport = "rabbit", destination = "${test.exchange}/orders.refused")
	record RabbitOrderRefused(String customer) {
	}

	@OutboxEvent(transport = "rabbit", destination = "/${test.queue}", key = "customer")
	record RabbitInvoiceIssued(String customer) {
	}

	@OutboxEvent(transport = "rabbit", destination = "${test.fanout}")
	record RabbitCustomerNotified(String customer) {
	}

}
