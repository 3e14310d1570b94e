package dev.outboxstarter.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.outboxstarter.OutboxConfigurationException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;

/**
 * The outbox's Kafka producer's timeouts, in step with {@code outbox.publish-timeout}: the producer
 * gives up on a record no later than the outbox stops caring about it, so that it neither holds records
 * for minutes after their batch stopped waiting (Kafka's {@code delivery.timeout.ms} is 2 minutes) nor
 * blocks a send for longer than a batch may take while that batch holds its rows locked (Kafka's
 * {@code max.block.ms} is 1 minute).
 * <p>
 * What the application did not set is derived from the publish timeout:
 * <ul>
 * <li>{@code max.block.ms}: the publish timeout, the longest a send may wait for metadata or buffer
 * space;</li>
 * <li>{@code request.timeout.ms}: the publish timeout; a request still unanswered then is sent again on
 * a new connection, which an idempotent producer does without a copy;</li>
 * <li>{@code delivery.timeout.ms}: twice the publish timeout (at least {@code linger.ms} plus
 * {@code request.timeout.ms}, as Kafka requires). A record its batch stopped waiting for stays in flight
 * for up to one more publish timeout, and the outbox does not send it again meanwhile: a broker that
 * stalls for longer than a publish timeout, but not two, still acknowledges it, with no copy. Were the
 * two equal, every such stall would expire records the broker may still write once it resumes, each to
 * be sent again.</li>
 * </ul>
 *
 * @param maxBlock the producer's {@code max.block.ms}
 * @param requestTimeout the producer's {@code request.timeout.ms}
 * @param deliveryTimeout the producer's {@code delivery.timeout.ms}
 */
record ProducerTimeouts(long maxBlock, long requestTimeout, long deliveryTimeout) {

	private static final String PROPERTY_PREFIX = "spring.kafka.producer.properties.";

	private static final String PUBLISH_TIMEOUT_PROPERTY = "outbox.publish-timeout";

	/**
	 * The timeouts of a producer with the application's configuration, and those derived from the
	 * publish timeout for what it does not set.
	 * @param configuration the application's producer configuration
	 * @param publishTimeout {@code outbox.publish-timeout}
	 * @return the timeouts
	 * @throws OutboxConfigurationException when the application's settings cannot hold with the publish
	 * timeout ({@code max.block.ms} longer than it) or Kafka would refuse them
	 * ({@code delivery.timeout.ms} shorter than {@code linger.ms} plus {@code request.timeout.ms}), naming
	 * the properties
	 */
	static ProducerTimeouts of(Map<String, Object> configuration, Duration publishTimeout) {
		long publish = publishTimeout.toMillis();
		// Unless the application sets it, the outbox's producer sends at once (see KafkaOutboxTransport.on).
		Number lingerSet = set(configuration, ProducerConfig.LINGER_MS_CONFIG);
		long linger = (lingerSet != null) ? lingerSet.longValue() : 0;
		Number maxBlock = set(configuration, ProducerConfig.MAX_BLOCK_MS_CONFIG);
		Number requestTimeout = set(configuration, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG);
		Number deliveryTimeout = set(configuration, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
		if (maxBlock != null && maxBlock.longValue() > publish) {
			throw new OutboxConfigurationException("The outbox's Kafka producer has " + PROPERTY_PREFIX
					+ "max.block.ms=" + maxBlock + ", longer than " + PUBLISH_TIMEOUT_PROPERTY + " (" + publishTimeout
					+ "): a send could block longer than a batch may take, while the batch holds its rows locked",
					"Set " + PROPERTY_PREFIX + "max.block.ms to at most " + publish + ", or remove it to have the "
							+ "outbox use " + PUBLISH_TIMEOUT_PROPERTY + ", or raise " + PUBLISH_TIMEOUT_PROPERTY);
		}
		long request = (requestTimeout != null) ? requestTimeout.longValue()
				: (deliveryTimeout != null) ? Math.min(publish, deliveryTimeout.longValue() - linger) : publish;
		long delivery = (deliveryTimeout != null) ? deliveryTimeout.longValue()
				: Math.max(2 * publish, linger + request);
		if (delivery < linger + request || request <= 0) {
			throw new OutboxConfigurationException("The outbox's Kafka producer has " + PROPERTY_PREFIX
					+ "delivery.timeout.ms=" + delivery + ", shorter than linger.ms (" + linger + ") plus "
					+ "request.timeout.ms (" + request + "): Kafka refuses such a producer, and every send would fail",
					"Set " + PROPERTY_PREFIX + "delivery.timeout.ms to at least " + (linger + Math.max(request, 1))
							+ ", or remove it to have the outbox derive it from " + PUBLISH_TIMEOUT_PROPERTY);
		}
		return new ProducerTimeouts((maxBlock != null) ? maxBlock.longValue() : publish, request, delivery);
	}

	/**
	 * The settings the outbox adds to the application's configuration: those it did not set.
	 * @param configuration the application's producer configuration
	 * @return the settings to override
	 */
	Map<String, Object> overridesOf(Map<String, Object> configuration) {
		Map<String, Object> overrides = new HashMap<>();
		putIfUnset(overrides, configuration, ProducerConfig.MAX_BLOCK_MS_CONFIG, this.maxBlock);
		putIfUnset(overrides, configuration, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, asInt(this.requestTimeout));
		putIfUnset(overrides, configuration, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, asInt(this.deliveryTimeout));
		return overrides;
	}

	/** Kafka's request and delivery timeouts are ints: a publish timeout of weeks gets the largest. */
	private static int asInt(long millis) {
		return (int) Math.min(millis, Integer.MAX_VALUE);
	}

	private static void putIfUnset(Map<String, Object> overrides, Map<String, Object> configuration, String name,
			Object value) {
		if (configuration.get(name) == null) {
			overrides.put(name, value);
		}
	}

	/** The application's value of a setting, as Kafka parses it, or {@code null} when it has none. */
	private static @Nullable Number set(Map<String, Object> configuration, String name) {
		return (Number) ProducerSettings.parsed(configuration, name);
	}

}
