package dev.outboxstarter.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.RabbitTestBroker.QueueRecorder;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's RabbitMQ connection is cut while events are being published (it goes through a
 * forwarding port that is closed, then opened again): every committed event still reaches the
 * consumer's queue, which is on a connection of its own, and no event ends DEAD for it.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.exchange=" + RabbitConnectionLossIntegrationTests.EXCHANGE,
				"outbox.table-name=" + RabbitConnectionLossIntegrationTests.TABLE,
				"outbox.rabbit.enabled=true", "spring.rabbitmq.publisher-confirm-type=correlated",
				"spring.rabbitmq.publisher-returns=true",
				"spring.rabbitmq.connection-timeout=2s", "outbox.publish-timeout=30s", "outbox.relay.poll-interval=100ms",
				"outbox.fast-path.grace-period=1s", "outbox.retry.initial-delay=100ms", "outbox.retry.max-delay=500ms",
				"outbox.retry.max-attempts=" + RabbitConnectionLossIntegrationTests.MAX_ATTEMPTS })
@DirtiesContext
class RabbitConnectionLossIntegrationTests {

	static final String EXCHANGE = "it-rabbit-connection-loss";

	static final String TABLE = "outbox_it_rabbit_connection_loss";

	/**
	 * Few, so that attempts pile up to it quickly; a lost connection must not make an event DEAD however
	 * many attempts it has behind it.
	 */
	static final int MAX_ATTEMPTS = 2;

	/**
	 * Bounds the burst, should the test go wrong: far beyond what the outage's steps let through. On a
	 * fast machine 1,000 orders were all placed before the broker had come back.
	 */
	private static final int MAX_ORDERS = 20_000;

	/** Several events per commit, so that more messages are in flight when the connection is cut. */
	private static final int EVENTS_PER_ORDER = 5;

	private static final int FLAPPING_KEYS = 4;

	private static final int FLAPPING_EVENTS_PER_KEY = 5;

	private static final TcpForwarder broker = TcpForwarder.onFreePort(RabbitTestBroker.address());

	private static final QueueRecorder queue;

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		RabbitTestBroker.deleteExchange(EXCHANGE);
		RabbitTestBroker.declareExchange(EXCHANGE, "topic", false);
		queue = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("it-rabbit-connection-loss"), EXCHANGE, "burst",
				Map.of());
		broker.open();
	}

	@Autowired
	private OrderService orders;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		RabbitTestBroker.register(registry, broker.port());
		TestDatabase.POSTGRESQL.register(registry);
	}

	@AfterAll
	static void cleanUp() {
		broker.close();
		queue.close();
		RabbitTestBroker.deleteExchange(EXCHANGE);
	}

	@Test
	void everyEventArrivesWhenTheConnectionIsLostDuringABurst() throws InterruptedException {
		String prefix = "lost-" + UUID.randomUUID().toString().substring(0, 8);
		Set<String> committed = ConcurrentHashMap.newKeySet();
		AtomicBoolean stop = new AtomicBoolean();
		AtomicReference<Throwable> producerFailure = new AtomicReference<>();
		Thread producer = new Thread(() -> {
			try {
				for (int i = 0; i < MAX_ORDERS && !stop.get(); i++) {
					String customer = prefix + "-" + i;
					BurstEvent[] events = IntStream.range(0, EVENTS_PER_ORDER)
						.mapToObj((line) -> new BurstEvent(customer, line))
						.toArray(BurstEvent[]::new);
					this.orders.place(customer, (Object[]) events);
					Stream.of(events).map(BurstEvent::json).forEach(committed::add);
				}
			}
			catch (Throwable ex) {
				producerFailure.set(ex);
			}
		}, "rabbit-burst-producer");
		producer.start();
		try {
			awaitAtMost(30).until(() -> received(prefix).size() >= 100);

			broker.close();
			// The outage is felt: publishes fail and are recorded for retry, while commits go on.
			awaitAtMost(30).until(() -> failedAttempts(prefix) > 0);
			int committedDuringOutage = committed.size();
			awaitAtMost(30).until(() -> committed.size() >= committedDuringOutage + 100);

			broker.open();
			int committedAtRecovery = committed.size();
			awaitAtMost(30).until(() -> committed.size() >= committedAtRecovery + 100);
		}
		finally {
			stop.set(true);
			producer.join(Duration.ofSeconds(30).toMillis());
		}
		assertThat(producerFailure.get()).isNull();
		assertThat(committed).hasSizeLessThan(MAX_ORDERS * EVENTS_PER_ORDER);

		awaitAtMost(60).pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(received(prefix)).containsAll(committed));
		awaitAtMost(10).until(() -> this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE
					+ " WHERE status = 'PUBLISHED' AND payload LIKE ?", Integer.class, "%" + prefix + "%") == committed
						.size());
	}

	/**
	 * Each key's first event has every attempt but one behind it, from an outage, and is in flight when
	 * the connection is lost again while the broker comes back: the broker has the message, and its
	 * confirm is lost with the connection. That is the connection's failure, not the event's: no event
	 * ends DEAD, and every key's events arrive, in order.
	 */
	@Test
	void confirmsLostWithTheConnectionNeitherKillEventsNorReorderTheirKeys() {
		String prefix = "flap-" + UUID.randomUUID().toString().substring(0, 8);
		broker.close();
		Map<String, List<String>> committed = new LinkedHashMap<>();
		for (int number = 0; number < FLAPPING_EVENTS_PER_KEY; number++) {
			List<FlappingEvent> events = new ArrayList<>();
			for (int key = 0; key < FLAPPING_KEYS; key++) {
				FlappingEvent event = new FlappingEvent(prefix + "-" + key, number);
				events.add(event);
				committed.computeIfAbsent(event.key(), (name) -> new ArrayList<>()).add(event.json());
			}
			this.orders.place(prefix, events.toArray());
		}
		awaitAtMost(30).until(() -> keysWhoseFirstEventHasAttempts(prefix, MAX_ATTEMPTS - 1) == FLAPPING_KEYS);

		broker.open(RabbitTestBroker.withholdingPublisherConfirms());
		awaitAtMost(30).pollInterval(Duration.ofMillis(20)).until(() -> !arrivals(prefix).isEmpty());
		broker.close();
		broker.open();

		awaitAtMost(60).pollInterval(Duration.ofMillis(100)).until(() -> this.jdbc.queryForObject(
				"SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PENDING' AND payload LIKE ?", Integer.class,
				"%" + prefix + "%") == 0);
		assertThat(this.jdbc.queryForList("SELECT payload, attempts, last_error FROM " + TABLE
				+ " WHERE status = 'DEAD' AND payload LIKE ?", "%" + prefix + "%")).as("DEAD events").isEmpty();
		Map<String, String> keyOfBody = new HashMap<>();
		committed.forEach((key, bodies) -> bodies.forEach((body) -> keyOfBody.put(body, key)));
		Map<String, List<String>> firstArrivals = new LinkedHashMap<>();
		arrivals(prefix).stream()
			.distinct()
			.forEach((body) -> firstArrivals.computeIfAbsent(keyOfBody.get(body), (key) -> new ArrayList<>())
				.add(body));
		assertThat(firstArrivals).as("each key's events in the order of their first arrival")
			.containsExactlyInAnyOrderEntriesOf(committed);
	}

	/**
	 * Waits without taking over other threads' uncaught exceptions: while the connection is cut, Spring
	 * AMQP's channel executor may throw one (a channel it returns to its cache cannot reconnect), which
	 * is noise, not a lost message.
	 */
	private static ConditionFactory awaitAtMost(int seconds) {
		return await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(seconds));
	}

	private Set<String> received(String prefix) {
		return queue.poll()
			.stream()
			.map((message) -> new String(message.getBody(), StandardCharsets.UTF_8))
			.filter((body) -> body.contains(prefix))
			.collect(Collectors.toSet());
	}

	private List<String> arrivals(String prefix) {
		return queue.poll()
			.stream()
			.map((message) -> new String(message.getBody(), StandardCharsets.UTF_8))
			.filter((body) -> body.contains(prefix))
			.toList();
	}

	private int keysWhoseFirstEventHasAttempts(String prefix, int attempts) {
		// Only a key's first pending event is ever sent, so only it has attempts.
		return this.jdbc.queryForObject("SELECT COUNT(DISTINCT message_key) FROM " + TABLE
				+ " WHERE status = 'PENDING' AND attempts >= ? AND payload LIKE ?", Integer.class, attempts,
				"%" + prefix + "%");
	}

	private int failedAttempts(String prefix) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE attempts > 0 AND payload LIKE ?",
				Integer.class, "%" + prefix + "%");
	}


	@OutboxEvent(transport = "rabbit", destination = "${test.exchange}/burst", key = "key")
	record FlappingEvent(String key, int number) {

		/** The body a consumer receives for it. */
		String json() {
			return "{\"key\":\"" + this.key + "\",\"number\":" + this.number + "}";
		}

	}

	@OutboxEvent(transport = "rabbit", destination = "${test.exchange}/burst")
	record BurstEvent(String customer, int line) {

		/** The body a consumer receives for it. */
		String json() {
			return "{\"customer\":\"" + this.customer + "\",\"line\":" + this.line + "}";
		}

	}

}
