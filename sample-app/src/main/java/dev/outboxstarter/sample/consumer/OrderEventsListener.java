package dev.outboxstarter.sample.consumer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.outboxstarter.OutboxHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import org.springframework.context.annotation.Profile;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * A downstream consumer of the orders topic, as another service would have it: it records every
 * message with the outbox headers and spots duplicates by message id.
 */
@Component
@Profile("!rabbit")
public class OrderEventsListener {

	private final ReceivedEvents received;

	private final EventPayloads payloads;

	OrderEventsListener(ReceivedEvents received, EventPayloads payloads) {
		this.received = received;
		this.payloads = payloads;
	}

	// Group: spring.kafka.consumer.group-id.
	@KafkaListener(topics = "${sample.topic:orders}")
	public void onMessage(ConsumerRecord<String, String> record) {
		this.received.record(new ReceivedEvent(header(record, OutboxHeaders.MESSAGE_ID),
				header(record, OutboxHeaders.EVENT_TYPE), record.key(), this.payloads.read(record.value()),
				record.partition(), record.offset(), Instant.now(), false));
	}

	private static String header(ConsumerRecord<?, ?> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

}
