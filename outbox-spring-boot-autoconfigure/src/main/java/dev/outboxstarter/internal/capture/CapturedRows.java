package dev.outboxstarter.internal.capture;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

/**
 * The rows one transaction captured, in capture order, and how many of them are written. A nested
 * transaction that rolls back to its savepoint takes back the rows captured since, written or not.
 */
final class CapturedRows {

	private final List<CapturedEvent> rows = new ArrayList<>();

	private int written;

	/** How many rows each savepoint of a nested transaction found; few, usually none. */
	private @Nullable Map<Object, Integer> savepoints;

	void addAll(List<CapturedEvent> rows) {
		this.rows.addAll(rows);
	}

	boolean hasUnwritten() {
		return this.written < this.rows.size();
	}

	List<CapturedEvent> unwritten() {
		return this.rows.subList(this.written, this.rows.size());
	}

	void markWritten() {
		this.written = this.rows.size();
	}

	List<CapturedEvent> written() {
		return Collections.unmodifiableList(this.rows.subList(0, this.written));
	}

	List<CapturedEvent> all() {
		return List.copyOf(this.rows);
	}

	void savepoint(Object savepoint) {
		if (this.savepoints == null) {
			this.savepoints = new IdentityHashMap<>(2);
		}
		this.savepoints.put(savepoint, this.rows.size());
	}

	/**
	 * Takes back the rows captured since a savepoint.
	 * @param savepoint the savepoint
	 * @return whether the savepoint was one of this transaction's
	 */
	boolean rollBackTo(Object savepoint) {
		Integer size = (this.savepoints != null) ? this.savepoints.remove(savepoint) : null;
		if (size == null) {
			return false;
		}
		// Rows written since the savepoint are rolled back with it.
		this.rows.subList(size, this.rows.size()).clear();
		this.written = Math.min(this.written, size);
		return true;
	}

}
