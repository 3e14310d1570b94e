package dev.outboxstarter.sample.consumer;

import java.time.Instant;

import tools.jackson.databind.JsonNode;

/**
 * One message the consumer received.
 *
 * @param messageId the {@code outbox-message-id} header: the outbox row id, the same on every
 * redelivery; {@code null} if the message had none
 * @param eventType the {@code outbox-event-type} header, e.g. {@code OrderPaid}
 * @param key the order id: the record key on Kafka, the {@code outbox-message-key} header on RabbitMQ
 * @param payload the record value, the event as JSON
 * @param partition the Kafka partition it came from ({@code -1} on RabbitMQ)
 * @param offset its offset there (the delivery tag on RabbitMQ)
 * @param receivedAt when the consumer got it
 * @param duplicate whether a message with the same id had been received before
 */
public record ReceivedEvent(String messageId, String eventType, String key, JsonNode payload, int partition,
		long offset, Instant receivedAt, boolean duplicate) {
}
