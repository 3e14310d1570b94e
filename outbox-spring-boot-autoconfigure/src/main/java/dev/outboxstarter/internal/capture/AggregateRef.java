package dev.outboxstarter.internal.capture;

import org.jspecify.annotations.Nullable;

/**
 * The aggregate an event came from.
 *
 * @param type the aggregate type, e.g. {@code Order}
 * @param id the aggregate id, if known
 */
public record AggregateRef(String type, @Nullable Object id) {

	public @Nullable String idAsString() {
		return (this.id != null) ? this.id.toString() : null;
	}

}
