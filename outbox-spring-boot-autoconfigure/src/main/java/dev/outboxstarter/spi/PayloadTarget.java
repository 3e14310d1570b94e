package dev.outboxstarter.spi;

/**
 * Where an event whose payload is being serialized will be published.
 *
 * @param eventType the logical event type
 * @param transport the transport's name, such as {@code kafka} or {@code rabbit}
 * @param destination the topic, or the transport's equivalent (a RabbitMQ {@code exchange/routing-key})
 * @since 0.1.0
 */
public record PayloadTarget(String eventType, String transport, String destination) {

}
