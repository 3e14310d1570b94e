package dev.outboxstarter.faults;

import dev.outboxstarter.OutboxEvent;
import org.jspecify.annotations.Nullable;

/**
 * An event Kafka always refuses: its padding makes it larger than the instances' producer
 * {@code max.request.size}, though smaller than {@code outbox.max-payload-size}.
 *
 * @param key the counter
 * @param txId the business transaction
 * @param tenant the tenant the transaction ran as, {@code null} for none
 * @param padding the bulk
 */
@OutboxEvent(destination = "${fault.topic}", type = Poison.TYPE)
public record Poison(int key, String txId, @Nullable String tenant, String padding) {

	static final String TYPE = "poison";

	static final int PADDING = 200_000;

}
