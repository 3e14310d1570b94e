package dev.outboxstarter.operations;

/**
 * How many rows of one transport have one status.
 *
 * @param status the status
 * @param transport the transport name
 * @param events the number of rows
 * @since 0.1.0
 */
public record EventCount(EventStatus status, String transport, long events) {
}
