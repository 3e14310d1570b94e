package dev.outboxstarter.internal.operations;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.internal.capture.UuidV7;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.store.EventSearch;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxTransport;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionOperations;

/**
 * {@link OutboxAdministration} of the outbox table.
 */
public final class DefaultOutboxAdministration implements OutboxAdministration {

	private final StoredEvents storedEvents;

	private final EventSearch search;

	private final OutboxStore store;

	private final TransactionOperations transactions;

	private final OutboxTransports transports;

	/**
	 * Creates the administration of a table.
	 * @param storedEvents its rows
	 * @param search finds its rows by query
	 * @param store inserts the copies of republished rows
	 * @param transactions the outbox's own transactions, in which a republish reads the rows and inserts
	 * their copies
	 * @param transports the transports, which check the destination a republish is given
	 */
	public DefaultOutboxAdministration(StoredEvents storedEvents, EventSearch search, OutboxStore store,
			TransactionOperations transactions, OutboxTransports transports) {
		this.storedEvents = storedEvents;
		this.search = search;
		this.store = store;
		this.transactions = transactions;
		this.transports = transports;
	}

	@Override
	public boolean discard(UUID id) {
		return this.storedEvents.discard(id);
	}

	@Override
	public int retryDead(EventQuery query) {
		return this.search.retryDead(query);
	}

	@Override
	public List<UUID> republish(EventQuery query, @Nullable String destination, int limit) {
		if (limit < 1) {
			throw new IllegalArgumentException("The limit of a republish must be at least 1, not " + limit);
		}
		if (destination != null && destination.isBlank()) {
			throw new IllegalArgumentException("The destination of a republish is blank: give one, or null to "
					+ "send the copies to the originals' destinations");
		}
		List<UUID> copied = this.transactions.execute((status) -> {
			List<CapturedEvent> copies = this.search.copyPublished(query, limit, (event) -> copy(event, destination));
			if (!copies.isEmpty()) {
				// Due at once: no fast path publishes them, the relay does.
				this.store.insert(copies, Duration.ZERO);
			}
			return copies.stream().map(CapturedEvent::id).toList();
		});
		return (copied != null) ? copied : List.of();
	}

	private CapturedEvent copy(CapturedEvent original, @Nullable String destination) {
		if (destination != null) {
			// Thrown inside the transaction: no copy is written, whichever row's transport refuses it.
			OutboxTransport transport = this.transports.byName().get(original.transport());
			if (transport != null) {
				transport.checkDestination(destination);
			}
		}
		Map<String, String> headers = new HashMap<>(original.headers());
		headers.put(OutboxHeaders.REPUBLISHED_FROM, original.id().toString());
		return new CapturedEvent(UuidV7.generate(), original.aggregateType(), original.aggregateId(),
				original.eventType(), original.transport(), (destination != null) ? destination : original.destination(),
				original.messageKey(), original.payload(), headers, null, false, original.contentType());
	}

}
