package dev.outboxstarter.faults;

import dev.outboxstarter.OutboxEvent;

/**
 * Counter {@code key} reached {@code n} in business transaction {@code txId}.
 *
 * @param key the counter, also the message key
 * @param n its new total
 * @param txId the business transaction
 */
@OutboxEvent(destination = "${fault.topic}", type = Counted.TYPE)
public record Counted(int key, long n, String txId) {

	static final String TYPE = "counted";

}
