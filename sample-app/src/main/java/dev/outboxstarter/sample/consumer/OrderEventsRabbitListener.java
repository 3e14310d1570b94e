package dev.outboxstarter.sample.consumer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.outboxstarter.OutboxHeaders;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.annotation.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The same downstream consumer on RabbitMQ (the {@code rabbit} profile): the events arrive through
 * the default exchange in the queue their destination names ({@code sample.topic}, e.g.
 * {@code /sample-orders}), the order id in the {@code outbox-message-key} header.
 */
@Component
@Profile("rabbit")
class OrderEventsRabbitListener {

	private final ReceivedEvents received;

	private final EventPayloads payloads;

	OrderEventsRabbitListener(ReceivedEvents received, EventPayloads payloads) {
		this.received = received;
		this.payloads = payloads;
	}

	@RabbitListener(queuesToDeclare = @Queue("${sample.rabbit.queue}"))
	void onMessage(Message message) {
		MessageProperties properties = message.getMessageProperties();
		String body = new String(message.getBody(), StandardCharsets.UTF_8);
		this.received.record(new ReceivedEvent(properties.getMessageId(), header(properties, OutboxHeaders.EVENT_TYPE),
				header(properties, OutboxHeaders.MESSAGE_KEY), this.payloads.read(body), -1, properties.getDeliveryTag(),
				Instant.now(), false));
	}

	private static String header(MessageProperties properties, String name) {
		Object value = properties.getHeader(name);
		return (value != null) ? value.toString() : null;
	}

}
