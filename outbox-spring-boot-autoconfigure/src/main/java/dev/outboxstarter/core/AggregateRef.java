package dev.outboxstarter.core;

import org.jspecify.annotations.Nullable;

/**
 * The aggregate an event came from.
 *
 * @param type the aggregate type, e.g. {@code Order}
 * @param id the aggregate id, if known
 */
record AggregateRef(String type, @Nullable Object id) {

	@Nullable String idAsString() {
		return (this.id != null) ? this.id.toString() : null;
	}

}
