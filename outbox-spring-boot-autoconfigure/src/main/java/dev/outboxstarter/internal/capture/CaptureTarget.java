package dev.outboxstarter.internal.capture;

import java.util.List;

import javax.sql.DataSource;

import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.CommittedEventsListener;

/**
 * One outbox as capture sees it: the data source whose transactions it serves, the table their rows
 * go to, and who is told of those rows once their transaction has committed (its fast path among them).
 * A transaction's events go to the outbox of the data source the transaction runs on, never to another
 * database's table, which would commit apart from the business change.
 *
 * @param name the outbox's name, the bean name of its data source
 * @param dataSource the data source whose transactions the outbox serves
 * @param store writes the rows to the outbox table
 * @param relayHandOff when the relay takes the new rows over from the fast path
 * @param committedListeners told the rows once their transaction has committed
 */
public record CaptureTarget(String name, DataSource dataSource, OutboxStore store, RelayHandOff relayHandOff,
		List<CommittedEventsListener> committedListeners) {

	public CaptureTarget {
		committedListeners = List.copyOf(committedListeners);
	}

	void insert(List<CapturedEvent> events) {
		this.store.insert(events, this.relayHandOff.gracePeriod());
	}

}
