package dev.outboxstarter.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.spi.CloudEventAttributes;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Publishes outbox messages to Kafka: the destination is the topic, the message key the record key,
 * the JSON payload the value, and the outbox headers record headers. A message captured as a CloudEvent
 * also gets the {@code ce_} headers of the CloudEvents Kafka binding's binary content mode and a
 * {@code content-type} header. Sends return at once; the returned future completes on the broker's
 * acknowledgement (with the producer's {@code acks}).
 * <p>
 * The producer's settings decide what it can promise. With {@code acks=0} nothing is acknowledged,
 * so the transport refuses to be created. Without idempotence (turned off, or implied off by
 * {@code acks=1}) a retried record can land after a later one of its partition, so the transport does
 * not claim to keep a key's order and the outbox sends a key's next event only once the previous one
 * is acknowledged.
 */
class KafkaOutboxTransport implements OutboxTransport, DisposableBean {

	/** The transport name events are routed to. */
	public static final String NAME = "kafka";

	private static final Log logger = LogFactory.getLog(KafkaOutboxTransport.class);

	private static final String CLOUD_EVENT_HEADER_PREFIX = "ce_";

	private final KafkaTemplate<String, byte[]> template;

	private final boolean keepsKeyOrder;

	/**
	 * Creates a transport that publishes with the given template.
	 * @param template the template, whose producer factory's settings decide whether a key's events
	 * can be sent together
	 * @throws IllegalStateException when the producer has {@code acks=0}, or settings Kafka refuses,
	 * naming the property to set
	 */
	public KafkaOutboxTransport(KafkaTemplate<String, byte[]> template) {
		this.template = template;
		this.keepsKeyOrder = keepsKeyOrder(template.getProducerFactory());
	}

	private static boolean keepsKeyOrder(ProducerFactory<?, ?> producerFactory) {
		ProducerSettings settings = ProducerSettings.of(producerFactory.getConfigurationProperties());
		settings.check();
		String description = settings.describe();
		if (description != null) {
			if ("1".equals(settings.acks())) {
				logger.warn(description);
			}
			else {
				logger.info(description);
			}
		}
		return settings.idempotent();
	}

	/**
	 * Creates a transport on the application's producer factory, so every {@code spring.kafka.producer}
	 * setting applies, with the serializers the outbox needs: the payload is already JSON.
	 * <p>
	 * The outbox hands the producer a whole batch and then awaits its acknowledgements, so lingering for
	 * more records ({@code linger.ms}, 5 ms by default since Kafka 4.0) would only hold back every batch,
	 * and under load delay each event once more for every batch queued ahead of it. The outbox's
	 * producer therefore sends at once ({@code linger.ms=0}) unless the application sets
	 * {@code linger.ms} itself ({@code spring.kafka.producer.properties.linger.ms}).
	 * <p>
	 * The template logs nothing per failed send: the outbox records the failure in the event's row and
	 * its metrics, and logs the outage of a broker once.
	 * <p>
	 * The producer's timeouts the application does not set follow the publish timeout (see
	 * {@link ProducerTimeouts}).
	 * The outbox never sends in a Kafka transaction, whatever the application's transaction id prefix:
	 * see {@link #outsideKafkaTransactions(ProducerFactory)}.
	 * @param producerFactory the application's producer factory
	 * @param publishTimeout {@code outbox.publish-timeout}
	 * @return the transport
	 * @throws IllegalStateException when the producer has {@code acks=0}, settings Kafka refuses, or
	 * timeouts that cannot hold with the publish timeout, naming the property to set, or when the
	 * producer factory is transactional and not a {@link DefaultKafkaProducerFactory}
	 */
	@SuppressWarnings("unchecked")
	public static KafkaOutboxTransport on(ProducerFactory<?, ?> producerFactory, Duration publishTimeout) {
		Map<String, Object> overrides = new HashMap<>();
		overrides.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
		overrides.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		if (!producerFactory.getConfigurationProperties().containsKey(ProducerConfig.LINGER_MS_CONFIG)) {
			overrides.put(ProducerConfig.LINGER_MS_CONFIG, 0);
		}
		overrides.putAll(timeoutOverrides(producerFactory.getConfigurationProperties(), publishTimeout));
		KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(
				(ProducerFactory<String, byte[]>) outsideKafkaTransactions(producerFactory), overrides);
		// The template's default listener logs every failed send at ERROR: through a broker outage, every
		// attempt of every pending event. The outbox records each failure in its row and its metrics, and
		// logs an outage once.
		template.setProducerListener(null);
		return new KafkaOutboxTransport(template);
	}

	private static Map<String, Object> timeoutOverrides(Map<String, Object> configuration, Duration publishTimeout) {
		return ProducerTimeouts.of(configuration, publishTimeout).overridesOf(configuration);
	}

	/**
	 * The producer factory the outbox publishes with: the application's, or a copy of it without its
	 * transaction id prefix (still idempotent) when the application's is transactional.
	 * <p>
	 * In a Kafka transaction a batch's records would be committed only after the outbox marked its rows
	 * published and the database committed: spring-kafka joins the outbox's database transaction and
	 * commits the Kafka one after it. Were that commit to fail (a producer fenced by another instance's
	 * with the same transactional id, a transaction coordinator failover, a crash between the two
	 * commits), the records would be aborted, invisible to {@code read_committed} consumers, while their
	 * events stay published. Outside a transaction, each acknowledged record is there for every consumer.
	 * @param producerFactory the application's producer factory
	 * @return a producer factory that is not transactional
	 * @throws OutboxConfigurationException when the producer factory is transactional and not a
	 * {@link DefaultKafkaProducerFactory}, of which the outbox cannot make a non-transactional copy
	 */
	private static ProducerFactory<?, ?> outsideKafkaTransactions(ProducerFactory<?, ?> producerFactory) {
		if (!producerFactory.transactionCapable()) {
			return producerFactory;
		}
		if (!(producerFactory instanceof DefaultKafkaProducerFactory<?, ?> transactional)) {
			throw new OutboxConfigurationException("The application's Kafka ProducerFactory ("
					+ producerFactory.getClass().getName() + ") is transactional (transaction id prefix '"
					+ producerFactory.getTransactionIdPrefix() + "') and not a DefaultKafkaProducerFactory, so the "
					+ "outbox cannot make a non-transactional copy of it; in a Kafka transaction committed after "
					+ "its events were marked published, an aborted transaction would lose them",
					"Declare the ProducerFactory bean as a DefaultKafkaProducerFactory (Spring Boot's own is one), "
							+ "or make a non-transactional ProducerFactory the primary one");
		}
		logger.info("The outbox publishes to Kafka outside Kafka transactions although the application's producer "
				+ "factory is transactional (spring.kafka.producer.transaction-id-prefix="
				+ transactional.getTransactionIdPrefix() + "): a Kafka transaction committed after the outbox marked "
				+ "its events published could still abort (a producer fenced by another instance with the same "
				+ "prefix, a coordinator failover, a crash between the two commits) and lose them for read_committed "
				+ "consumers. Its producer stays idempotent; the application's own KafkaTemplate stays transactional.");
		return nonTransactionalCopy(transactional);
	}

	/**
	 * A copy of the factory as {@link DefaultKafkaProducerFactory#copyWithConfigurationOverride} makes
	 * one, but without the transaction id prefix, which that copy carries over unless the overrides name
	 * another. The factory keeps the prefix apart from its configuration, so a factory built from the
	 * configuration is not transactional, and keeps the {@code enable.idempotence=true} that setting the
	 * prefix added to it.
	 */
	private static <K, V> DefaultKafkaProducerFactory<K, V> nonTransactionalCopy(
			DefaultKafkaProducerFactory<K, V> factory) {
		Map<String, Object> configuration = new HashMap<>(factory.getConfigurationProperties());
		configuration.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
		DefaultKafkaProducerFactory<K, V> copy = new DefaultKafkaProducerFactory<>(configuration,
				factory.getKeySerializerSupplier(), factory.getValueSerializerSupplier(),
				factory.isConfigureSerializers());
		copy.setPhysicalCloseTimeout((int) factory.getPhysicalCloseTimeout().toSeconds());
		copy.setProducerPerThread(factory.isProducerPerThread());
		factory.getPostProcessors().forEach(copy::addPostProcessor);
		factory.getListeners().forEach(copy::addListener);
		return copy;
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * Whether the producer is idempotent (Kafka's default, with {@code acks=all}): a key always goes to
	 * the same partition, and idempotence keeps a partition's records in order through retries and fails
	 * the ones after a failed one. Without it, a retried record could land after a later one.
	 */
	@Override
	public boolean keepsKeyOrder() {
		return this.keepsKeyOrder;
	}

	/**
	 * Sends a binary payload as the record's value and its content type as the {@code content-type}
	 * header.
	 */
	@Override
	public boolean sendsBinaryPayloads() {
		return true;
	}

	/**
	 * The producer's retriable errors mean the cluster cannot take records right now: no metadata within
	 * {@code max.block.ms} (the broker is unreachable, or the topic does not exist and is not created
	 * automatically), records expired in the producer, no leader, too few in-sync replicas, a lost
	 * connection. Any other error, such as a record too large or a denied authorization, is the
	 * message's own.
	 */
	@Override
	public boolean isUnavailable(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof RetriableException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The errors no retry of the same record can get past: a record larger than the producer's
	 * {@code max.request.size} or the topic's {@code max.message.bytes}, a topic name Kafka does not
	 * allow, a record the broker's validation refuses (a record without a key on a compacted topic).
	 * Each needs an operator to change a setting, or the event to change.
	 */
	@Override
	public boolean isPermanent(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof RecordTooLargeException || cause instanceof RecordBatchTooLargeException
					|| cause instanceof InvalidTopicException || cause instanceof InvalidRecordException) {
				return true;
			}
		}
		return false;
	}

	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		ProducerRecord<String, byte[]> record = new ProducerRecord<>(message.destination(), null, message.key(),
				message.payloadBytes(), headers(message));
		return this.template.send(record);
	}

	/**
	 * Closes the producer: with its own serializers, the template has a producer factory of its own.
	 */
	@Override
	public void destroy() {
		this.template.destroy();
	}

	private static RecordHeaders headers(OutboxMessage message) {
		RecordHeaders headers = new RecordHeaders();
		message.headers().forEach((name, value) -> add(headers, name, value, false));
		// The outbox's own headers replace stored ones of the same name; without stored ones there is
		// nothing to look for (the ce_ and outbox- names never collide).
		boolean replace = !message.headers().isEmpty();
		add(headers, OutboxHeaders.MESSAGE_ID, message.id().toString(), replace);
		add(headers, OutboxHeaders.EVENT_TYPE, message.eventType(), replace);
		add(headers, OutboxHeaders.AGGREGATE_TYPE, message.aggregateType(), replace);
		add(headers, OutboxHeaders.AGGREGATE_ID, message.aggregateId(), replace);
		add(headers, OutboxHeaders.OCCURRED_AT, message.occurredAt().toString(), replace);
		CloudEventAttributes cloudEvent = CloudEventAttributes.of(message);
		if (cloudEvent != null) {
			// The Kafka protocol binding's binary content mode: ce_ headers, and the data's content type.
			cloudEvent.asMap()
				.forEach((name, value) -> add(headers, CLOUD_EVENT_HEADER_PREFIX + name, value, replace));
			add(headers, OutboxHeaders.CONTENT_TYPE, cloudEvent.dataContentType(), replace);
		}
		else {
			add(headers, OutboxHeaders.CONTENT_TYPE, message.contentType(), replace);
		}
		return headers;
	}

	private static void add(RecordHeaders headers, String name, @Nullable String value, boolean replace) {
		if (value != null) {
			if (replace) {
				headers.remove(name);
			}
			headers.add(name, value.getBytes(StandardCharsets.UTF_8));
		}
	}

}
