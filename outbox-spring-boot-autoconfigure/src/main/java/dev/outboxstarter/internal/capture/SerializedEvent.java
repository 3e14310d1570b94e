package dev.outboxstarter.internal.capture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.internal.routing.ResolvedRoute;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

/**
 * An outbox event routed and serialized: all that its rows need but the aggregate it came from.
 *
 * @param routes its routes
 * @param payload its JSON payload
 * @param headers the headers contributed to it
 */
record SerializedEvent(EventRoutes routes, String payload, Map<String, String> headers) {

	/**
	 * The event's rows, one per route.
	 * @param aggregate the aggregate it came from, if known
	 * @return the rows, each with an id of its own
	 * @throws OutboxCaptureException if the aggregate's id cannot be the key of a route keyed by it
	 */
	List<CapturedEvent> rowsFor(@Nullable AggregateRef aggregate) {
		String aggregateType = (aggregate != null) ? aggregate.type() : null;
		String aggregateId = (aggregate != null) ? aggregate.idAsString() : null;
		List<ResolvedRoute> routes = this.routes.routes();
		List<CapturedEvent> rows = new ArrayList<>(routes.size());
		for (ResolvedRoute route : routes) {
			rows.add(new CapturedEvent(UuidV7.generate(), aggregateType, aggregateId, route.eventType(),
					route.transport(), route.destination(), this.routes.keyOf(route, aggregateId), this.payload,
					withFormatHeaders(route)));
		}
		return rows;
	}

	private Map<String, String> withFormatHeaders(ResolvedRoute route) {
		if (route.formatHeaders().isEmpty()) {
			return this.headers;
		}
		Map<String, String> merged = new LinkedHashMap<>(this.headers);
		merged.putAll(route.formatHeaders());
		return merged;
	}

}
