package dev.outboxstarter.internal.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

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
 * {@link OutboxAdministration} of the outbox tables: the primary data source's, then those of the
 * others. An id is in one table at most; a query applies to each.
 */
public final class DefaultOutboxAdministration implements OutboxAdministration {

	private final Supplier<List<AdministeredTable>> tables;

	private final OutboxTransports transports;

	/**
	 * Creates the administration of the outbox tables.
	 * @param tables each outbox's table, the primary data source's first
	 * @param transports the transports, which check the destination a republish is given
	 */
	public DefaultOutboxAdministration(Supplier<List<AdministeredTable>> tables, OutboxTransports transports) {
		this.tables = tables;
		this.transports = transports;
	}

	@Override
	public boolean discard(UUID id) {
		for (AdministeredTable table : this.tables.get()) {
			if (table.storedEvents().discard(id)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public int retryDead(EventQuery query) {
		int retried = 0;
		for (AdministeredTable table : this.tables.get()) {
			retried += table.search().retryDead(query);
		}
		return retried;
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
		List<UUID> copied = new ArrayList<>();
		for (AdministeredTable table : this.tables.get()) {
			if (copied.size() < limit) {
				copied.addAll(republish(table, query, destination, limit - copied.size()));
			}
		}
		return copied;
	}

	/**
	 * Copies a table's published rows, each copy written to the same table as its original.
	 */
	private List<UUID> republish(AdministeredTable table, EventQuery query, @Nullable String destination,
			int limit) {
		List<UUID> copied = table.transactions().execute((status) -> {
			List<CapturedEvent> copies = table.search()
				.copyPublished(query, limit, (event) -> copy(event, destination));
			if (!copies.isEmpty()) {
				// Due at once: no fast path publishes them, the relay does.
				table.store().insert(copies, Duration.ZERO);
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

	/**
	 * One outbox table, as the administration changes it.
	 *
	 * @param storedEvents its rows
	 * @param search finds its rows by query
	 * @param store inserts the copies of republished rows
	 * @param transactions the outbox's own transactions on its data source, in which a republish reads
	 * the rows and inserts their copies
	 */
	public record AdministeredTable(StoredEvents storedEvents, EventSearch search, OutboxStore store,
			TransactionOperations transactions) {

	}

}
