package dev.outboxstarter.internal.inbox;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.internal.inbox.MessageIds.MessageId;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.MessageBuilder;
import org.springframework.messaging.support.GenericMessage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The message id and the source it is unique in, as read from each kind of message a listener takes:
 * the outbox's id has no source, a CloudEvent's id comes with its source.
 */
public class MessageIdsTests {

	@Test
	void aKafkaRecordsCloudEventIdComesWithItsSourceAndTheOutboxIdWithNone() {
		ConsumerRecord<String, String> cloudEvent = new ConsumerRecord<>("t", 0, 0, "k", "v");
		cloudEvent.headers().add("ce_id", bytes("1001")).add("ce_source", bytes("/inventory"));
		assertThat(MessageIds.of(cloudEvent)).isEqualTo(new MessageId("/inventory", "1001"));

		ConsumerRecord<String, String> outbox = new ConsumerRecord<>("t", 0, 0, "k", "v");
		outbox.headers()
			.add(OutboxHeaders.MESSAGE_ID, bytes("0190-outbox"))
			.add("ce_id", bytes("0190-outbox"))
			.add("ce_source", bytes("/orders"));
		assertThat(MessageIds.of(outbox)).isEqualTo(new MessageId(null, "0190-outbox"));
	}

	@Test
	void anAmqpMessagesCloudEventIdComesWithItsSourceAndItsMessageIdWithNone() {
		assertThat(MessageIds.of(MessageBuilder.withBody(new byte[0])
			.setHeader("cloudEvents:id", "1001")
			.setHeader("cloudEvents:source", "/payments")
			.build())).isEqualTo(new MessageId("/payments", "1001"));
		assertThat(MessageIds.of(MessageBuilder.withBody(new byte[0]).setMessageId("m-1").build()))
			.isEqualTo(new MessageId(null, "m-1"));
	}

	@Test
	void aSpringMessagesCloudEventIdComesWithTheSourceOfItsBinding() {
		assertThat(MessageIds.of(new GenericMessage<>("v", Map.of("ce_id", bytes("1001"), "ce_source", bytes("/a")))))
			.isEqualTo(new MessageId("/a", "1001"));
		assertThat(MessageIds
			.of(new GenericMessage<>("v", Map.of("cloudEvents:id", "1001", "cloudEvents:source", "/b"))))
			.isEqualTo(new MessageId("/b", "1001"));
		assertThat(MessageIds.of(new GenericMessage<>("v", Map.of(OutboxHeaders.MESSAGE_ID, "m-1", "ce_source", "/c"))))
			.isEqualTo(new MessageId(null, "m-1"));
		assertThat(MessageIds.of(new GenericMessage<>("v"))).isEqualTo(new MessageId(null, null));
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

}
