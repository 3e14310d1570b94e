package dev.outboxstarter.it;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.it.orders.CustomerNotified;
import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.it.orders.PurchaseOrder;
import dev.outboxstarter.it.orders.PurchaseOrderRepository;
import dev.outboxstarter.testsupport.StatementCounter;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.kafka.CloudEventDeserializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The write path and the Kafka read path end to end, on PostgreSQL and a real Kafka broker, with the
 * fast path on.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=" + KafkaOutboxIntegrationTests.TOPIC, "outbox.table-name=" + KafkaOutboxIntegrationTests.TABLE,
				"outbox.fast-path.grace-period=2s", "outbox.relay.poll-interval=200ms", "outbox.max-payload-size=16KB",
				"outbox.routes[dev.outboxstarter.it.KafkaOutboxIntegrationTests$LibraryEvent].destination=${test.topic}",
				"outbox.routes[dev.outboxstarter.it.KafkaOutboxIntegrationTests$LibraryEvent].key=reference",
				"outbox.routes[dev.outboxstarter.it.KafkaOutboxIntegrationTests$LibraryEvent].event-type=library-event",
				"spring.application.name=orders-it",
				"outbox.routes[dev.outboxstarter.it.KafkaOutboxIntegrationTests$PartnerNotified].destination="
						+ KafkaOutboxIntegrationTests.CLOUDEVENTS_TOPIC,
				"outbox.routes[dev.outboxstarter.it.KafkaOutboxIntegrationTests$PartnerNotified].event-type=partner-notified",
				"outbox.routes[dev.outboxstarter.it.KafkaOutboxIntegrationTests$PartnerNotified].format=cloudevents" })
@Import(KafkaOutboxIntegrationTests.Config.class)
class KafkaOutboxIntegrationTests {

	static final String TOPIC = "it-kafka-orders";

	static final String TABLE = "outbox_it_kafka";

	/** Only CloudEvents go here: the CloudEvents SDK's deserializer fails on any other record. */
	static final String CLOUDEVENTS_TOPIC = "it-kafka-cloudevents";

	private static TopicRecorder topic;

	private static TopicRecorder cloudEventsTopic;

	private static CloudEventsRecorder cloudEvents;

	@Autowired
	private OrderService orders;

	@Autowired
	private PurchaseOrderRepository repository;

	@Autowired
	private ApplicationEventPublisher publisher;

	@Autowired
	private Outbox outbox;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private PublishedEvents published;

	@Autowired
	private PlainEventListener plainEvents;

	@Autowired
	private StatementCounter outboxInserts;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
		TestKafka.createTopic(CLOUDEVENTS_TOPIC, 3);
	}

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", TestKafka::bootstrapServers);
		TestDatabase.POSTGRESQL.register(registry);
	}

	@BeforeAll
	static void subscribe() {
		topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC);
		cloudEventsTopic = new TopicRecorder(TestKafka.bootstrapServers(), CLOUDEVENTS_TOPIC);
		cloudEvents = new CloudEventsRecorder(TestKafka.bootstrapServers(), CLOUDEVENTS_TOPIC);
	}

	@AfterAll
	static void unsubscribe() {
		topic.close();
		cloudEventsTopic.close();
		cloudEvents.close();
	}

	@Test
	void savedAggregateEventsArriveInOrderWithKeyAndHeaders() {
		String customer = unique("alice");
		PurchaseOrder order = this.orders.place(customer, new OrderPlaced(customer, 1), new OrderPlaced(customer, 2));

		List<Received> received = awaitReceived(customer, 2);
		assertThat(received).extracting(Received::value)
			.containsExactly("{\"customer\":\"" + customer + "\",\"line\":1}",
					"{\"customer\":\"" + customer + "\",\"line\":2}");
		assertThat(received).allSatisfy((record) -> {
			assertThat(record.key()).isEqualTo(order.getId().toString());
			assertThat(record.header(OutboxHeaders.EVENT_TYPE)).isEqualTo("OrderPlaced");
			assertThat(record.header(OutboxHeaders.AGGREGATE_TYPE)).isEqualTo("PurchaseOrder");
			assertThat(record.header(OutboxHeaders.AGGREGATE_ID)).isEqualTo(order.getId().toString());
			assertThat(Instant.parse(record.header(OutboxHeaders.OCCURRED_AT))).isBetween(Instant.now().minusSeconds(60),
					Instant.now());
			assertThat(UUID.fromString(record.header(OutboxHeaders.MESSAGE_ID)).version()).isEqualTo(7);
			assertThat(record.headers().keySet()).as("no CloudEvents header in the outbox format")
				.noneMatch((name) -> name.startsWith("ce_") || name.equals("content-type"));
		});
		assertThat(received).extracting((record) -> record.header(OutboxHeaders.MESSAGE_ID)).doesNotHaveDuplicates();
	}

	@Test
	void eventsOfSeveralAggregatesSavedTogetherAreKeyedByTheirOwnAggregate() {
		String first = unique("first");
		String second = unique("second");
		List<PurchaseOrder> saved = this.orders.placeAll(List.of(first, second));

		assertThat(awaitReceived(first, 1).get(0).key()).isEqualTo(saved.get(0).getId().toString());
		assertThat(awaitReceived(second, 1).get(0).key()).isEqualTo(saved.get(1).getId().toString());
	}

	@Test
	void allEventsOfATransactionAreInsertedInOneJdbcBatch() {
		String prefix = unique("batch");
		this.outboxInserts.reset();

		this.orders.placeAll(List.of(prefix + "-1", prefix + "-2", prefix + "-3", prefix + "-4", prefix + "-5"));

		assertThat(this.outboxInserts.prepared()).isEqualTo(1);
		assertThat(this.outboxInserts.batchedRows()).isEqualTo(5);
		assertThat(this.outboxInserts.batches()).isEqualTo(1);
		assertThat(this.outboxInserts.singleUpdates()).isZero();
		awaitReceived(prefix, 5);
	}

	@Test
	void changedAggregateThatIsNeverSavedHasItsEventPublished() {
		PurchaseOrder order = this.orders.place(unique("bob"));

		this.orders.pay(order.getId());

		String payload = "{\"orderId\":" + order.getId() + "}";
		List<Received> received = awaitReceived(payload, 1);
		assertThat(received.get(0).header(OutboxHeaders.EVENT_TYPE)).isEqualTo("order-paid");
		assertThat(received.get(0).key()).isEqualTo(order.getId().toString());
		assertThat(this.repository.findById(order.getId()).orElseThrow().getStatus()).isEqualTo("PAID");
	}

	@Test
	void deletedAggregateHasItsEventPublished() {
		String customer = unique("dave");
		PurchaseOrder order = this.orders.place(customer);

		this.orders.delete(order.getId());

		assertThat(awaitReceived(customer + "-deleted", 1).get(0).key()).isEqualTo(order.getId().toString());
		assertThat(this.repository.findById(order.getId())).isEmpty();
	}

	@Test
	void rolledBackTransactionWritesNoRowAndPublishesNothing() {
		String customer = unique("carol");

		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.orders.placeThenFail(customer));

		assertThat(outboxRowsMentioning(customer)).isZero();
		// Anything published for the rolled-back order would have been sent before this later one.
		String marker = unique("marker");
		this.orders.place(marker, new OrderPlaced(marker, 1));
		awaitReceived(marker, 1);
		assertThat(topic.poll()).noneMatch((record) -> record.value().contains(customer));
	}

	@Test
	void fastPathPublishesEverythingAndTheRelayNothingInTheHappyPath() {
		String prefix = unique("burst");
		List<PurchaseOrder> placed = IntStream.range(0, 20)
			.mapToObj((i) -> this.orders.place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1)))
			.toList();

		List<Received> received = awaitReceived(prefix, placed.size());
		Set<UUID> ids = received.stream()
			.map((record) -> UUID.fromString(record.header(OutboxHeaders.MESSAGE_ID)))
			.collect(Collectors.toSet());
		assertThat(ids).hasSize(placed.size());
		// Listeners are told once the delivery is committed, which can be after the consumer saw it.
		await().atMost(Duration.ofSeconds(10)).until(() -> this.published.byFastPath().containsAll(ids));
		// Past the grace period the relay could take any row still pending: there must be none.
		await().during(Duration.ofMillis(2600))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.published.byRelay().stream().noneMatch(ids::contains));
		assertThat(topic.poll().stream().filter((record) -> record.value().contains(prefix))).hasSize(placed.size());
	}

	@Test
	void eventsRoutedByPropertiesARouterBeanAndTheOutboxApiArePublished() {
		String reference = unique("ref");
		String routed = unique("router");
		String invoice = unique("invoice");
		this.transactions.executeWithoutResult((status) -> {
			this.publisher.publishEvent(new LibraryEvent(reference));
			this.publisher.publishEvent(new RoutedByBean(routed));
			this.outbox.publish("Invoice", 42, new CustomerNotified(invoice));
		});

		Received library = awaitReceived(reference, 1).get(0);
		assertThat(library.key()).isEqualTo(reference);
		assertThat(library.header(OutboxHeaders.EVENT_TYPE)).isEqualTo("library-event");
		Received byRouter = awaitReceived(routed, 1).get(0);
		assertThat(byRouter.key()).isEqualTo("router-key");
		assertThat(byRouter.header(OutboxHeaders.EVENT_TYPE)).isEqualTo("routed-by-bean");
		Received fromApi = awaitReceived(invoice, 1).get(0);
		assertThat(fromApi.key()).isEqualTo(invoice);
		assertThat(fromApi.header(OutboxHeaders.AGGREGATE_TYPE)).isEqualTo("Invoice");
		assertThat(fromApi.header(OutboxHeaders.AGGREGATE_ID)).isEqualTo("42");
	}

	@Test
	void anEventOnARouteItsCallerDecidedIsPublishedThereWithTheCallersHeaders() {
		String name = unique("decided");
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(OutboxRoute.kafka("decided", TOPIC, name),
				new PlainEvent(name), Map.of("origin", "caller", OutboxHeaders.EVENT_TYPE, "forged")));

		Received received = awaitReceived(name, 1).get(0);
		assertThat(received.key()).isEqualTo(name);
		assertThat(received.value()).isEqualTo("{\"name\":\"" + name + "\"}");
		assertThat(received.header("origin")).isEqualTo("caller");
		assertThat(received.header(OutboxHeaders.EVENT_TYPE)).as("the outbox's own headers win").isEqualTo("decided");
		assertThat(received.header(OutboxHeaders.AGGREGATE_TYPE)).isNull();
	}

	@Test
	void anEventOnARouteToAnUnknownTransportIsRefusedAndRollsTheBusinessChangeBack() {
		String customer = unique("judy");

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.transactions.executeWithoutResult((status) -> {
				this.repository.save(new PurchaseOrder(customer));
				this.outbox.publish(new OutboxRoute("decided", "nats", "orders", customer), new PlainEvent(customer),
						Map.of());
			}))
			.withMessageContaining("nats");

		assertThat(this.repository.findAll()).noneMatch((order) -> order.getCustomer().equals(customer));
		assertThat(outboxRowsMentioning(customer)).isZero();
	}

	@Test
	void eventsThatDoNotOptInStayOrdinaryApplicationEvents() {
		String name = unique("plain");
		this.transactions.executeWithoutResult((status) -> this.publisher.publishEvent(new PlainEvent(name)));

		assertThat(this.plainEvents.received).contains(name);
		assertThat(outboxRowsMentioning(name)).isZero();
		// Outside a transaction too: no outbox involvement, no refusal.
		this.publisher.publishEvent(new PlainEvent(name + "-again"));
		assertThat(this.plainEvents.received).contains(name + "-again");
	}

	@Test
	void outboxEventWithNoTransactionIsRefused() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.publisher.publishEvent(new OrderPlaced("nobody", 1)))
			.withMessageContaining("Event 'OrderPlaced' (" + OrderPlaced.class.getName() + ")")
			.withMessageContaining("no transaction active");
	}

	@Test
	void outboxEventInATransactionOfAnotherDataSourceIsRefused() {
		TransactionTemplate otherDatabase = new TransactionTemplate(
				new DataSourceTransactionManager(TestDatabase.POSTGRESQL.dataSource()));

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> otherDatabase
				.executeWithoutResult((status) -> this.publisher.publishEvent(new OrderPlaced("elsewhere", 1))))
			.withMessageContaining("Event 'OrderPlaced' (" + OrderPlaced.class.getName() + ")")
			.withMessageContaining("in a transaction that does not use the outbox DataSource");
	}

	@Test
	void unserializableEventIsRefusedAndRollsTheBusinessChangeBack() {
		String customer = unique("erin");

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.orders.place(customer, new Unserializable()))
			.withMessageContaining("Event 'Unserializable'")
			.withMessageContaining("cannot be serialized to JSON");

		assertThat(this.repository.findAll()).noneMatch((order) -> order.getCustomer().equals(customer));
	}

	@Test
	void eventLargerThanMaxPayloadSizeIsRefusedAndRollsTheBusinessChangeBack() {
		String customer = unique("frank");

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.orders.place(customer, new OrderPlaced("x".repeat(20_000), 1)))
			.withMessageContaining("Event 'OrderPlaced'")
			.withMessageContaining("more than outbox.max-payload-size (16384 bytes)");

		assertThat(this.repository.findAll()).noneMatch((order) -> order.getCustomer().equals(customer));
	}

	@Test
	void outboxEventWithoutRouteIsRefusedAndRollsTheBusinessChangeBack() {
		String customer = unique("grace");

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.orders.place(customer, new Unrouted(customer)))
			.withMessageContaining("Event 'Unrouted' (" + Unrouted.class.getName() + ")")
			.withMessageContaining("has no destination")
			.withMessageContaining("outbox.routes[" + Unrouted.class.getName() + "].destination");
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.transactions.executeWithoutResult((status) -> this.outbox.publish(new PlainEvent(customer))))
			.withMessageContaining(PlainEvent.class.getName() + " has no outbox route");

		assertThat(this.repository.findAll()).noneMatch((order) -> order.getCustomer().equals(customer));
	}

	@Test
	void eventWhoseKeyExpressionYieldsNullIsRefusedAndRollsTheBusinessChangeBack() {
		String customer = unique("heidi");

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.orders.place(customer, new AccountOpened(customer, null)))
			.withMessageContaining("Event 'AccountOpened' (" + AccountOpened.class.getName() + ")")
			.withMessageContaining("its key expression 'account' evaluated to null");

		assertThat(this.repository.findAll()).noneMatch((order) -> order.getCustomer().equals(customer));
		assertThat(outboxRowsMentioning(customer)).isZero();
	}

	@Test
	void refusedEventCaughtByTheBusinessCodeStillRollsItsTransactionBack() {
		String customer = unique("ivan");

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.transactions.executeWithoutResult((status) -> {
				this.repository.save(new PurchaseOrder(customer));
				try {
					this.outbox.publish(new PlainEvent(customer));
				}
				catch (OutboxCaptureException ex) {
					// The business code carries on as if the event did not matter.
				}
				this.publisher.publishEvent(new OrderPlaced(customer, 1));
			}))
			.withMessageStartingWith("This transaction cannot commit: it raised an outbox event that was refused")
			.withMessageContaining(PlainEvent.class.getName() + " has no outbox route");

		assertThat(this.repository.findAll()).noneMatch((order) -> order.getCustomer().equals(customer));
		assertThat(outboxRowsMentioning(customer)).isZero();
	}

	@Test
	void eventsInTheCloudEventsFormatAreReadByACloudEventsConsumerWithEveryAttribute() {
		String customer = unique("ce-annotated");
		PurchaseOrder order = this.orders.place(customer, new OrderShipped(customer));

		CloudEvent event = cloudEvents.await(customer);
		Received record = awaitReceived(cloudEventsTopic, customer, 1).get(0);
		assertThat(event.getSpecVersion()).isEqualTo(SpecVersion.V1);
		assertThat(event.getId()).isEqualTo(outboxIdOf(customer))
			.isEqualTo(record.header(OutboxHeaders.MESSAGE_ID));
		assertThat(event.getType()).isEqualTo("com.acme.orders.order-shipped");
		assertThat(event.getSource()).as("spring.application.name").isEqualTo(URI.create("orders-it"));
		assertThat(event.getSubject()).isEqualTo(order.getId().toString());
		assertThat(event.getTime()).isNotNull();
		assertThat(event.getTime().toInstant()).isEqualTo(Instant.parse(record.header(OutboxHeaders.OCCURRED_AT)))
			.isBetween(Instant.now().minusSeconds(60), Instant.now());
		assertThat(event.getDataContentType()).isEqualTo("application/json");
		assertThat(event.getDataSchema()).isNull();
		assertThat(event.getExtensionNames()).isEmpty();
		assertThat(event.getData()).isNotNull();
		assertThat(new String(event.getData().toBytes(), StandardCharsets.UTF_8))
			.isEqualTo("{\"customer\":\"" + customer + "\"}");
		assertThat(record.key()).isEqualTo(order.getId().toString());
		assertThat(record.header(OutboxHeaders.EVENT_TYPE)).as("the outbox headers stay")
			.isEqualTo("com.acme.orders.order-shipped");
	}

	@Test
	void eventsRoutedAsCloudEventsByPropertiesOrARouterBeanAreCloudEvents() {
		String partner = unique("ce-properties");
		String audited = unique("ce-router");
		this.transactions.executeWithoutResult((status) -> {
			this.publisher.publishEvent(new PartnerNotified(partner));
			this.publisher.publishEvent(new Audited(audited));
		});

		CloudEvent byProperties = cloudEvents.await(partner);
		assertThat(byProperties.getId()).isEqualTo(outboxIdOf(partner));
		assertThat(byProperties.getType()).isEqualTo("partner-notified");
		assertThat(byProperties.getSource()).isEqualTo(URI.create("orders-it"));
		assertThat(byProperties.getSubject()).as("no aggregate raised it").isNull();
		assertThat(byProperties.getDataContentType()).isEqualTo("application/json");
		CloudEvent byRouter = cloudEvents.await(audited);
		assertThat(byRouter.getId()).isEqualTo(outboxIdOf(audited));
		assertThat(byRouter.getType()).isEqualTo("audited");
		assertThat(awaitReceived(cloudEventsTopic, audited, 1).get(0).key()).isEqualTo("audit-key");
	}

	private String outboxIdOf(String marker) {
		return this.jdbc.queryForObject("SELECT CAST(id AS VARCHAR(36)) FROM " + TABLE + " WHERE payload LIKE ?",
				String.class, "%" + marker + "%");
	}

	private List<Received> awaitReceived(String marker, int count) {
		return awaitReceived(topic, marker, count);
	}

	private static List<Received> awaitReceived(TopicRecorder recorder, String marker, int count) {
		return await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> recorder.poll().stream().filter((record) -> record.value().contains(marker)).toList(),
					(records) -> records.size() >= count);
	}

	private int outboxRowsMentioning(String text) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE payload LIKE ?", Integer.class,
				"%" + text + "%");
	}

	private static final AtomicInteger sequence = new AtomicInteger();

	private static String unique(String name) {
		return name + "-" + sequence.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	/** A type from a library: routed by outbox.routes properties. */
	record LibraryEvent(String reference) {
	}

	/** Routed by an OutboxEventRouter bean. */
	record RoutedByBean(String name) {
	}

	@OutboxEvent(destination = CLOUDEVENTS_TOPIC, type = "com.acme.orders.order-shipped", format = "cloudevents")
	record OrderShipped(String customer) {
	}

	/** A CloudEvent by its outbox.routes properties. */
	record PartnerNotified(String partner) {
	}

	/** A CloudEvent by the route of an OutboxEventRouter bean. */
	record Audited(String entry) {
	}

	/** Reads the topic from the beginning with the CloudEvents SDK's Kafka deserializer. */
	static final class CloudEventsRecorder implements AutoCloseable {

		private final KafkaConsumer<String, CloudEvent> consumer;

		private final List<CloudEvent> received = new ArrayList<>();

		CloudEventsRecorder(String bootstrapServers, String topic) {
			Properties config = new Properties();
			config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
			config.put(ConsumerConfig.GROUP_ID_CONFIG, "cloudevents-" + UUID.randomUUID());
			config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
			this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new CloudEventDeserializer());
			List<TopicPartition> partitions = TopicRecorder.partitionsOf(this.consumer, topic);
			this.consumer.assign(partitions);
			this.consumer.seekToBeginning(partitions);
		}

		/** Waits for the CloudEvent whose data mentions a marker. */
		synchronized CloudEvent await(String marker) {
			return org.awaitility.Awaitility.await()
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> {
					poll();
					return this.received.stream()
						.filter((event) -> event.getData() != null
								&& new String(event.getData().toBytes(), StandardCharsets.UTF_8).contains(marker))
						.findFirst()
						.orElse(null);
				}, java.util.Objects::nonNull);
		}

		private void poll() {
			this.consumer.poll(Duration.ofMillis(100)).forEach((record) -> this.received.add(record.value()));
		}

		@Override
		public void close() {
			this.consumer.close(Duration.ofSeconds(5));
		}

	}

	record PlainEvent(String name) {
	}

	/** Jackson cannot read its property. */
	@OutboxEvent(destination = "${test.topic}")
	static class Unserializable {

		public String getValue() {
			throw new IllegalStateException("value is not readable");
		}

	}

	@OutboxEvent
	record Unrouted(String customer) {
	}

	@OutboxEvent(destination = "${test.topic}", key = "account")
	record AccountOpened(String customer, String account) {
	}

	static class PlainEventListener {

		final Set<String> received = java.util.concurrent.ConcurrentHashMap.newKeySet();

		@EventListener
		void on(PlainEvent event) {
			this.received.add(event.name());
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Config {

		@Bean
		PublishedEvents publishedEvents() {
			return new PublishedEvents();
		}

		@Bean
		static StatementCounter outboxInserts() {
			return new StatementCounter("INSERT INTO " + TABLE);
		}

		@Bean
		static BeanPostProcessor countingDataSource(ObjectProvider<StatementCounter> counter) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					return (bean instanceof DataSource dataSource) ? counter.getObject().wrap(dataSource) : bean;
				}

			};
		}

		@Bean
		PlainEventListener plainEventListener() {
			return new PlainEventListener();
		}

		@Bean
		OutboxEventRouter routedByBeanRouter() {
			return (event) -> (event instanceof RoutedByBean) ? OutboxRoute.kafka("routed-by-bean", TOPIC, "router-key")
					: null;
		}

		@Bean
		OutboxEventRouter auditedRouter() {
			return (event) -> (event instanceof Audited)
					? OutboxRoute.kafka("audited", CLOUDEVENTS_TOPIC, "audit-key").withFormat(MessageFormat.CLOUDEVENTS) : null;
		}

	}

}
