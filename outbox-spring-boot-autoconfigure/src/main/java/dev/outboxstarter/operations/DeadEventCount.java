package dev.outboxstarter.operations;

/**
 * How many DEAD rows one event type has at one destination.
 *
 * @param eventType the logical event type
 * @param transport the transport name
 * @param destination where the events were going
 * @param events the number of DEAD rows
 * @since 0.1.0
 */
public record DeadEventCount(String eventType, String transport, String destination, long events) {
}
