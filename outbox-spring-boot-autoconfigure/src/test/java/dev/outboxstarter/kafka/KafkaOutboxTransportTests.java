package dev.outboxstarter.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.ForwardingOutboxTransport;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.SendFailure;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The producer settings the outbox's Kafka transport derives from the application's producer factory,
 * what it does with the application's own (refused without acknowledgements, a key's events one at a
 * time without idempotence, copied without its transactions), and which of a real producer's failures it reports as the broker being
 * unavailable.
 */
class KafkaOutboxTransportTests {

	private static final String TOPIC = "kafka-transport-tests";

	private static final String ORDER_TOPIC = "kafka-transport-order-tests";

	private static final String SMALL_TOPIC = "kafka-transport-small-records";

	private static final String PAUSED_TOPIC = "kafka-transport-paused-broker";

	private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);

	@Test
	void outboxProducerSendsEachBatchWithoutLingering() {
		Map<String, Object> configuration = outboxProducerConfiguration(Map.of("bootstrap.servers", "localhost:9092"));

		assertThat(configuration).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 0)
			.containsEntry("bootstrap.servers", "localhost:9092");
	}

	@Test
	void lingerSetByTheApplicationIsKept() {
		Map<String, Object> configuration = outboxProducerConfiguration(
				Map.of("bootstrap.servers", "localhost:9092", ProducerConfig.LINGER_MS_CONFIG, "20"));

		assertThat(configuration).containsEntry(ProducerConfig.LINGER_MS_CONFIG, "20");
	}

	@Test
	void outboxProducerTimeoutsFollowThePublishTimeout() {
		Map<String, Object> configuration = outboxProducerConfiguration(Map.of("bootstrap.servers", "localhost:9092"),
				Duration.ofSeconds(3));

		assertThat(configuration).containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 3000L)
			.containsEntry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000)
			.containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 6000);
	}

	@Test
	void timeoutsSetByTheApplicationThatCanHoldAreKept() {
		Map<String, Object> application = Map.of("bootstrap.servers", "localhost:9092",
				ProducerConfig.MAX_BLOCK_MS_CONFIG, "500", ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000",
				ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");

		assertThat(outboxProducerConfiguration(application, PUBLISH_TIMEOUT)).containsAllEntriesOf(application);
	}

	@Test
	void deliveryTimeoutSetByTheApplicationGetsARequestTimeoutKafkaAccepts() {
		Map<String, Object> configuration = outboxProducerConfiguration(Map.of("bootstrap.servers", "localhost:9092",
				ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2000), PUBLISH_TIMEOUT);

		assertThat(configuration).containsEntry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1995)
			.containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2000);
	}

	@Test
	void maxBlockLongerThanThePublishTimeoutIsRefusedNamingBothProperties() {
		assertThatIllegalStateException()
			.isThrownBy(() -> on(new DefaultKafkaProducerFactory<>(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60000)),
					PUBLISH_TIMEOUT))
			.withMessageContaining("spring.kafka.producer.properties.max.block.ms=60000, longer than "
					+ "outbox.publish-timeout (PT10S)")
			.withMessageContaining("Set spring.kafka.producer.properties.max.block.ms to at most 10000");
	}

	@Test
	void deliveryTimeoutKafkaWouldRefuseIsRefusedAtStartUpNamingTheProperties() {
		assertThatIllegalStateException()
			.isThrownBy(() -> on(new DefaultKafkaProducerFactory<>(Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
					1000, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000)), PUBLISH_TIMEOUT))
			.withMessageContaining("spring.kafka.producer.properties.delivery.timeout.ms=1000, shorter than "
					+ "linger.ms (0) plus request.timeout.ms (5000)")
			.withMessageContaining("to at least 5000");
	}

	/**
	 * A broker that stops answering for longer than the publish timeout, without closing a connection
	 * (a long GC pause): the batch stops waiting, and every event must still reach the topic once. An
	 * outbox that sent the events again while the producer still held the first copies would find them
	 * all written once the broker resumed.
	 */
	@Test
	void brokerPausedLongerThanThePublishTimeoutReceivesEachEventOnceAndLosesNone() throws Exception {
		Duration publishTimeout = Duration.ofSeconds(3);
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(Path.of("target", "kafka-paused-broker", "broker.log"))) {
			broker.createTopic(PAUSED_TOPIC, 1);
			KafkaOutboxTransport kafka = on(
					new DefaultKafkaProducerFactory<>(Map.of("bootstrap.servers", broker.bootstrapServers())),
					publishTimeout);
			try {
				// The producer has the topic's metadata and a connection before the broker stops answering.
				kafka.send(message(PAUSED_TOPIC, "{}")).get(30, TimeUnit.SECONDS);
				OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.POSTGRESQL, "outbox_kafka_paused_it");
				List<CapturedEvent> events = new ArrayList<>();
				for (int i = 0; i < 20; i++) {
					events.add(OutboxTestTable.event(KafkaOutboxTransport.NAME, PAUSED_TOPIC, "key-" + (i % 4)));
				}
				outbox.insert(outbox.store(), Duration.ZERO, events.toArray(CapturedEvent[]::new));
				Supplier<DeliveryResult> relay = outbox.relay(kafka, publishTimeout, Duration.ofMillis(1));

				broker.pause();
				try {
					assertThat(relay.get().published()).as("published while the broker was paused").isZero();
					// Failed attempts would be due again at once: a relay that sends them again does so now.
					relay.get();
				}
				finally {
					broker.resume();
				}
				await().atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> relay.get() != null && outbox.jdbc()
						.queryForObject("SELECT COUNT(*) FROM " + outbox.table() + " WHERE status = 'PUBLISHED'",
								Integer.class) == events.size());

				Map<String, Long> expected = events.stream()
					.collect(Collectors.toMap((event) -> event.id().toString(), (event) -> 1L));
				try (TopicRecorder topic = new TopicRecorder(broker.bootstrapServers(), PAUSED_TOPIC)) {
					Map<String, Long> copies = topic.pollToEnd()
						.stream()
						.map((record) -> record.header(OutboxHeaders.MESSAGE_ID))
						.filter(expected::containsKey)
						.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
					assertThat(copies).as("copies received per message id").isEqualTo(expected);
				}
			}
			finally {
				kafka.destroy();
			}
		}
	}

	@Test
	void producerWithKafkasDefaultsKeepsKeyOrder() {
		assertThat(transport(Map.of()).keepsKeyOrder()).isTrue();
		assertThat(transport(Map.of(ProducerConfig.ACKS_CONFIG, "-1")).keepsKeyOrder()).isTrue();
		assertThat(transport(Map.of(ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true))
			.keepsKeyOrder()).isTrue();
	}

	@Test
	void producerWithIdempotenceTurnedOffOrImpliedOffDoesNotKeepKeyOrder() {
		assertThat(transport(Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false")).keepsKeyOrder()).isFalse();
		assertThat(transport(Map.of(ProducerConfig.ACKS_CONFIG, "1")).keepsKeyOrder()).isFalse();
		assertThat(transport(Map.of(ProducerConfig.RETRIES_CONFIG, 0)).keepsKeyOrder()).isFalse();
	}

	@Test
	void producerThatWaitsForNoAcknowledgementIsRefusedNamingThePropertyAndTheValueToSet() {
		assertThatIllegalStateException().isThrownBy(() -> transport(Map.of(ProducerConfig.ACKS_CONFIG, "0")))
			.withMessageContaining("the producer has acks=0")
			.withMessageContaining("Set spring.kafka.producer.acks=all");
	}

	@Test
	void idempotenceAskedForWithAcksOneIsRefusedNamingThePropertyAndTheValueToSet() {
		assertThatIllegalStateException()
			.isThrownBy(() -> transport(
					Map.of(ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true")))
			.withMessageContaining("enable.idempotence=true with acks=1")
			.withMessageContaining("Set spring.kafka.producer.acks=all");
	}

	@Test
	void transactionalProducerFactoryIsCopiedWithoutItsTransactionsAndLeftTransactional() {
		DefaultKafkaProducerFactory<Object, Object> application = new DefaultKafkaProducerFactory<>(
				Map.of("bootstrap.servers", "localhost:9092"));
		application.setTransactionIdPrefix("orders-tx-");

		KafkaOutboxTransport transport = on(application, Duration.ofSeconds(10));
		try {
			KafkaTemplate<?, ?> outbox = (KafkaTemplate<?, ?>) ReflectionTestUtils.getField(transport, "template");
			assertThat(outbox.isTransactional()).isFalse();
			assertThat(outbox.getProducerFactory().getConfigurationProperties())
				.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
				.containsEntry("bootstrap.servers", "localhost:9092");
			assertThat(application.transactionCapable()).isTrue();
			assertThat(application.getTransactionIdPrefix()).isEqualTo("orders-tx-");
		}
		finally {
			transport.destroy();
		}
	}

	@Test
	void transactionalProducerFactoryOfWhichNoNonTransactionalCopyCanBeMadeIsRefused() {
		ProducerFactory<Object, Object> transactional = new ProducerFactory<>() {

			@Override
			public Producer<Object, Object> createProducer() {
				throw new UnsupportedOperationException();
			}

			@Override
			public boolean transactionCapable() {
				return true;
			}

			@Override
			public String getTransactionIdPrefix() {
				return "orders-tx-";
			}

		};

		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> on(transactional, Duration.ofSeconds(10)))
			.withMessageContaining("is transactional (transaction id prefix 'orders-tx-') and not a "
					+ "DefaultKafkaProducerFactory")
			.withMessageContaining("Declare the ProducerFactory bean as a DefaultKafkaProducerFactory");
	}

	@Test
	void messageIsACloudEventWhenItsStoredHeadersSaySoWhateverThePublishingInstanceIsConfiguredFor()
			throws Exception {
		TestKafka.createTopic(TOPIC, 1);
		KafkaOutboxTransport kafka = transport(Map.of("bootstrap.servers", TestKafka.bootstrapServers()));
		try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
			Instant occurredAt = Instant.parse("2026-11-25T10:15:30.123456Z");
			OutboxMessage cloudEvent = new OutboxMessage(UUID.randomUUID(), "com.acme.orders.order-placed", "Order", "7",
					TOPIC, "7", "{}", Map.of("ce_specversion", "1.0", "ce_source", "/orders", "traceparent", "t"),
					occurredAt);
			OutboxMessage plain = new OutboxMessage(UUID.randomUUID(), "order-placed", "Order", "7", TOPIC, "7", "{}",
					Map.of("traceparent", "t"), occurredAt);

			kafka.send(cloudEvent).get(30, TimeUnit.SECONDS);
			kafka.send(plain).get(30, TimeUnit.SECONDS);

			Map<String, TopicRecorder.Received> byId = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> topic.poll()
					.stream()
					.collect(Collectors.toMap((record) -> record.header(OutboxHeaders.MESSAGE_ID), (record) -> record,
							(first, second) -> first)),
						(received) -> received.containsKey(plain.id().toString()));
			assertThat(byId.get(cloudEvent.id().toString()).headers()).containsEntry("ce_id", cloudEvent.id().toString())
				.containsEntry("ce_source", "/orders")
				.containsEntry("ce_specversion", "1.0")
				.containsEntry("ce_type", "com.acme.orders.order-placed")
				.containsEntry("ce_subject", "7")
				.containsEntry("ce_time", "2026-11-25T10:15:30.123456Z")
				.containsEntry("content-type", "application/json")
				.containsEntry(OutboxHeaders.MESSAGE_ID, cloudEvent.id().toString())
				.containsEntry("traceparent", "t");
			assertThat(byId.get(plain.id().toString()).headers().keySet())
				.noneMatch((name) -> name.startsWith("ce_") || name.equals("content-type"));
		}
		finally {
			kafka.destroy();
		}
	}

	@Test
	void keyOfAProducerWithoutIdempotenceIsSentOneEventAtATimeAndArrivesInOrder() throws Exception {
		TestKafka.createTopic(ORDER_TOPIC, 3);
		KafkaOutboxTransport kafka = transport(Map.of("bootstrap.servers", TestKafka.bootstrapServers(),
				ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false", ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5));
		try {
			KeysInFlight inFlight = new KeysInFlight(kafka);
			OutboxTestTable outbox = OutboxTestTable.prepare(TestDatabase.H2, "outbox_kafka_order_it");
			String run = UUID.randomUUID().toString();
			List<CapturedEvent> events = new ArrayList<>();
			for (int i = 0; i < 12; i++) {
				events.add(OutboxTestTable.event(KafkaOutboxTransport.NAME, ORDER_TOPIC, run + "-" + (i % 2)));
			}
			outbox.insert(outbox.store(), Duration.ZERO, events.toArray(CapturedEvent[]::new));

			DeliveryResult result = outbox.publishDue(inFlight);

			assertThat(result.published()).isEqualTo(12);
			assertThat(inFlight.most()).as("most events of one key in flight at once").isOne();
			// Each key's events in commit order (the two keys may be on different partitions).
			Map<String, List<String>> expected = events.stream()
				.collect(Collectors.groupingBy(CapturedEvent::messageKey,
						Collectors.mapping((event) -> event.id().toString(), Collectors.toList())));
			try (TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), ORDER_TOPIC)) {
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(100))
					.untilAsserted(() -> assertThat(topic.poll()
						.stream()
						.filter((record) -> record.key().startsWith(run))
						.collect(Collectors.groupingBy(TopicRecorder.Received::key, Collectors
							.mapping((record) -> record.header(OutboxHeaders.MESSAGE_ID), Collectors.toList()))))
						.isEqualTo(expected));
			}
		}
		finally {
			kafka.destroy();
		}
	}

	@Test
	void brokerThatCannotBeReachedIsUnavailable() throws Exception {
		try (TcpForwarder closed = TestKafka.unreachableAddress()) {
			KafkaOutboxTransport transport = on(new DefaultKafkaProducerFactory<>(
					Map.of("bootstrap.servers", closed.address(), ProducerConfig.MAX_BLOCK_MS_CONFIG, 300)), PUBLISH_TIMEOUT);
			try {
				Throwable failure = SendFailure.of(transport, message("x"));

				assertThat(transport.isUnavailable(failure)).as("unavailable: %s", failure).isTrue();
				assertThat(transport.isPermanent(failure)).isFalse();
			}
			finally {
				transport.destroy();
			}
		}
	}

	@Test
	void recordLargerThanTheProducerSendsIsRefusedPermanently() throws Exception {
		TestKafka.createTopic(TOPIC, 1);
		KafkaOutboxTransport transport = on(new DefaultKafkaProducerFactory<>(
				Map.of("bootstrap.servers", TestKafka.bootstrapServers(), ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1024)),
				PUBLISH_TIMEOUT);
		try {
			Throwable failure = SendFailure.of(transport, message("x".repeat(2048)));

			assertThat(failure).hasStackTraceContaining("RecordTooLargeException");
			assertThat(transport.isUnavailable(failure)).isFalse();
			assertThat(transport.isPermanent(failure)).isTrue();
		}
		finally {
			transport.destroy();
		}
	}

	@Test
	void recordLargerThanItsTopicTakesIsRefusedPermanentlyByTheBroker() throws Exception {
		TestKafka.createTopic(SMALL_TOPIC, 1, Map.of("max.message.bytes", "1024"));
		KafkaOutboxTransport transport = transport(Map.of("bootstrap.servers", TestKafka.bootstrapServers()));
		try {
			Throwable failure = SendFailure.of(transport, message(SMALL_TOPIC, "x".repeat(2048)));

			assertThat(failure).hasStackTraceContaining("RecordTooLargeException");
			assertThat(transport.isUnavailable(failure)).isFalse();
			assertThat(transport.isPermanent(failure)).isTrue();
		}
		finally {
			transport.destroy();
		}
	}

	@Test
	void topicNameKafkaDoesNotAllowIsRefusedPermanently() throws Exception {
		KafkaOutboxTransport transport = transport(Map.of("bootstrap.servers", TestKafka.bootstrapServers()));
		try {
			Throwable failure = SendFailure.of(transport, message("orders for ada", "{}"));

			assertThat(failure).hasStackTraceContaining("InvalidTopicException");
			assertThat(transport.isUnavailable(failure)).isFalse();
			assertThat(transport.isPermanent(failure)).isTrue();
		}
		finally {
			transport.destroy();
		}
	}

	private static KafkaOutboxTransport transport(Map<String, Object> application) {
		return on(new DefaultKafkaProducerFactory<>(application), PUBLISH_TIMEOUT);
	}

	private static KafkaOutboxTransport on(ProducerFactory<?, ?> producerFactory, Duration publishTimeout) {
		return KafkaOutboxTransport.on(producerFactory, publishTimeout);
	}

	private static Map<String, Object> outboxProducerConfiguration(Map<String, Object> application) {
		return outboxProducerConfiguration(application, PUBLISH_TIMEOUT);
	}

	private static Map<String, Object> outboxProducerConfiguration(Map<String, Object> application,
			Duration publishTimeout) {
		KafkaOutboxTransport transport = on(new DefaultKafkaProducerFactory<>(application), publishTimeout);
		KafkaTemplate<?, ?> template = (KafkaTemplate<?, ?>) ReflectionTestUtils.getField(transport, "template");
		return template.getProducerFactory().getConfigurationProperties();
	}

	/** Counts, per message key, the messages sent and not yet acknowledged. */
	private static final class KeysInFlight extends ForwardingOutboxTransport {

		private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

		private final AtomicInteger most = new AtomicInteger();

		KeysInFlight(OutboxTransport transport) {
			super(transport);
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			AtomicInteger ofKey = this.inFlight.computeIfAbsent(message.key(), (key) -> new AtomicInteger());
			this.most.accumulateAndGet(ofKey.incrementAndGet(), Math::max);
			return super.send(message).whenComplete((acknowledgement, failure) -> ofKey.decrementAndGet());
		}

		int most() {
			return this.most.get();
		}

	}

	private static OutboxMessage message(String payload) {
		return message(TOPIC, payload);
	}

	private static OutboxMessage message(String topic, String payload) {
		return new OutboxMessage(UUID.randomUUID(), "test", null, null, topic, "key", payload, Map.of(), Instant.now());
	}

}
