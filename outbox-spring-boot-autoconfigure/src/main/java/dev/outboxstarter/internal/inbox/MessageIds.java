package dev.outboxstarter.internal.inbox;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.outboxstarter.OutboxHeaders;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Reads the message id, and the source it is unique in, from the argument of a listener method that
 * carries the message with its headers: a Kafka {@code ConsumerRecord}, a Spring AMQP {@code Message}
 * (the {@code outbox-message-id} header, or the message id the RabbitMQ transport sets to the same
 * value) or a Spring {@code Message}. The outbox's id is unique everywhere and has no source. A
 * CloudEvent's id is its message id too, unique only within its source: the {@code ce_id} and
 * {@code ce_source} headers of the Kafka binding, the {@code cloudEvents:id} and
 * {@code cloudEvents:source} application properties of the AMQP binding. So a consumer deduplicates
 * CloudEvents of any producer, not only the outbox's (whose CloudEvents carry both ids, equal, and are
 * read by the outbox's).
 */
public final class MessageIds {

	private static final String KAFKA_CLOUD_EVENT_ID = "ce_id";

	private static final String KAFKA_CLOUD_EVENT_SOURCE = "ce_source";

	private static final String AMQP_CLOUD_EVENT_ID = "cloudEvents:id";

	private static final String AMQP_CLOUD_EVENT_SOURCE = "cloudEvents:source";

	private static final MessageId NONE = new MessageId(null, null);

	private static final List<Reader> READERS = readers();

	private MessageIds() {
	}

	/**
	 * Which argument of a method carries the message, if any.
	 * @param method the listener method
	 * @return the argument's index
	 */
	static Optional<Integer> messageArgument(Method method) {
		Class<?>[] types = method.getParameterTypes();
		for (int i = 0; i < types.length; i++) {
			Class<?> type = types[i];
			if (READERS.stream().anyMatch((reader) -> reader.type().isAssignableFrom(type))) {
				return Optional.of(i);
			}
		}
		return Optional.empty();
	}

	/**
	 * The types a listener method may take the message as, for error messages.
	 * @return their simple names
	 */
	static String supportedTypes() {
		return String.join(", ", READERS.stream().map((reader) -> reader.type().getName()).toList());
	}

	/**
	 * Reads the message id and its source.
	 * @param message the argument that carries the message
	 * @return the id and source, each {@code null} when the message has none
	 */
	static MessageId of(Object message) {
		for (Reader reader : READERS) {
			if (reader.type().isInstance(message)) {
				return reader.read(message);
			}
		}
		return NONE;
	}

	private static List<Reader> readers() {
		ClassLoader classLoader = MessageIds.class.getClassLoader();
		return Arrays.stream(new Reader[] { kafkaRecord(classLoader), amqpMessage(classLoader), springMessage() })
			.filter((reader) -> reader != null)
			.toList();
	}

	private static @Nullable Reader kafkaRecord(ClassLoader classLoader) {
		if (!ClassUtils.isPresent("org.apache.kafka.clients.consumer.ConsumerRecord", classLoader)) {
			return null;
		}
		return new Reader(org.apache.kafka.clients.consumer.ConsumerRecord.class, (message) -> {
			var headers = ((org.apache.kafka.clients.consumer.ConsumerRecord<?, ?>) message).headers();
			String id = kafkaHeader(headers, OutboxHeaders.MESSAGE_ID);
			if (id != null) {
				return new MessageId(null, id);
			}
			return new MessageId(kafkaHeader(headers, KAFKA_CLOUD_EVENT_SOURCE),
					kafkaHeader(headers, KAFKA_CLOUD_EVENT_ID));
		});
	}

	private static @Nullable String kafkaHeader(org.apache.kafka.common.header.Headers headers, String name) {
		var header = headers.lastHeader(name);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	private static @Nullable Reader amqpMessage(ClassLoader classLoader) {
		if (!ClassUtils.isPresent("org.springframework.amqp.core.Message", classLoader)) {
			return null;
		}
		return new Reader(org.springframework.amqp.core.Message.class, (message) -> {
			var properties = ((org.springframework.amqp.core.Message) message).getMessageProperties();
			Object id = properties.getHeader(OutboxHeaders.MESSAGE_ID);
			if (id != null) {
				return new MessageId(null, id.toString());
			}
			Object cloudEventId = properties.getHeader(AMQP_CLOUD_EVENT_ID);
			if (cloudEventId != null) {
				return new MessageId(text(properties.getHeader(AMQP_CLOUD_EVENT_SOURCE)), cloudEventId.toString());
			}
			return new MessageId(null, properties.getMessageId());
		});
	}

	private static Reader springMessage() {
		return new Reader(org.springframework.messaging.Message.class, (message) -> {
			var headers = ((org.springframework.messaging.Message<?>) message).getHeaders();
			Object id = headers.get(OutboxHeaders.MESSAGE_ID);
			if (id != null) {
				return new MessageId(null, text(id));
			}
			if (headers.get(KAFKA_CLOUD_EVENT_ID) != null) {
				return new MessageId(text(headers.get(KAFKA_CLOUD_EVENT_SOURCE)),
						text(headers.get(KAFKA_CLOUD_EVENT_ID)));
			}
			return new MessageId(text(headers.get(AMQP_CLOUD_EVENT_SOURCE)), text(headers.get(AMQP_CLOUD_EVENT_ID)));
		});
	}

	private static @Nullable String text(@Nullable Object header) {
		if (header instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		return (header != null) ? header.toString() : null;
	}

	/**
	 * A message's id and the source it is unique in.
	 *
	 * @param source the CloudEvents source, {@code null} for an id unique everywhere (the outbox's)
	 * @param id the id, {@code null} when the message has none
	 */
	record MessageId(@Nullable String source, @Nullable String id) {
	}

	private record Reader(Class<?> type, Function<Object, MessageId> reader) {

		MessageId read(Object message) {
			return this.reader.apply(message);
		}

	}

}
