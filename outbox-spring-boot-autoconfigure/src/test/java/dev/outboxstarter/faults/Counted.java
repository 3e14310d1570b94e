package dev.outboxstarter.faults;

import dev.outboxstarter.OutboxEvent;
import org.jspecify.annotations.Nullable;

/**
 * Counter {@code key} (of the tenant, if any) reached {@code n} in business transaction {@code txId}.
 *
 * @param key the counter, also the message key
 * @param n its new total
 * @param txId the business transaction
 * @param tenant the tenant the transaction ran as, {@code null} for none
 */
@OutboxEvent(destination = "${fault.topic}", type = Counted.TYPE)
public record Counted(int key, long n, String txId, @Nullable String tenant) {

	static final String TYPE = "counted";

}
