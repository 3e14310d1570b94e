package dev.outboxstarter.sample.consumer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.outboxstarter.core.OutboxHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * A downstream consumer of the orders topic, as another service would have it: it records every
 * message with the outbox headers and spots duplicates by message id.
 */
@Component
public class OrderEventsListener {

	private static final Logger logger = LoggerFactory.getLogger(OrderEventsListener.class);

	private final ReceivedEvents received;

	private final JsonMapper jsonMapper;

	public OrderEventsListener(ReceivedEvents received, JsonMapper jsonMapper) {
		this.received = received;
		// Amounts stay exact (42.50, not 42.5).
		this.jsonMapper = jsonMapper.rebuild().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
	}

	// Group: spring.kafka.consumer.group-id.
	@KafkaListener(topics = "${sample.topic:orders}")
	public void onMessage(ConsumerRecord<String, String> record) {
		ReceivedEvent event = this.received.record(new ReceivedEvent(header(record, OutboxHeaders.MESSAGE_ID),
				header(record, OutboxHeaders.EVENT_TYPE), record.key(), payload(record.value()), record.partition(),
				record.offset(), Instant.now(), false));
		if (event.duplicate()) {
			logger.warn("Duplicate {} {} for key {}", event.eventType(), event.messageId(), event.key());
		}
		else {
			logger.info("Received {} {} for key {}", event.eventType(), event.messageId(), event.key());
		}
	}

	private static String header(ConsumerRecord<?, ?> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	private JsonNode payload(String value) {
		if (value == null) {
			return null;
		}
		try {
			return this.jsonMapper.readTree(value);
		}
		catch (JacksonException ex) {
			// Not JSON (not from the outbox): keep it as text.
			return StringNode.valueOf(value);
		}
	}

}
