package dev.outboxstarter.internal.capture;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.internal.routing.ResolvedRoute;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

/**
 * An outbox event routed and serialized: all that its rows need but the aggregate it came from.
 *
 * @param routes its routes
 * @param payloads its payload for each route, in the routes' order
 * @param headers the headers contributed to it
 */
record SerializedEvent(EventRoutes routes, List<EventSerializer.Payload> payloads, Map<String, String> headers) {

	/**
	 * The event's rows, one per route.
	 * @param aggregate the aggregate it came from, if known
	 * @param deliverAt the time it was asked to be published at, if any, which takes the place of its
	 * routes' delays
	 * @return the rows, each with an id of its own
	 * @throws OutboxCaptureException if the aggregate's id cannot be the key of a route keyed by it
	 */
	List<CapturedEvent> rowsFor(@Nullable AggregateRef aggregate, @Nullable Instant deliverAt) {
		String aggregateType = (aggregate != null) ? aggregate.type() : null;
		String aggregateId = (aggregate != null) ? aggregate.idAsString() : null;
		List<ResolvedRoute> routes = this.routes.routes();
		List<CapturedEvent> rows = new ArrayList<>(routes.size());
		for (int i = 0; i < routes.size(); i++) {
			ResolvedRoute route = routes.get(i);
			EventSerializer.Payload payload = this.payloads.get(i);
			rows.add(new CapturedEvent(UuidV7.generate(), aggregateType, aggregateId, route.eventType(),
					route.transport(), route.destination(), this.routes.keyOf(route, aggregateId), payload.text(),
					headers(route, payload), deliveryTime(route, deliverAt), route.delayHoldsKey(),
					payload.contentType()));
		}
		return rows;
	}

	/**
	 * When a route's row may be published at the earliest: {@code null} (at once) for a time that has
	 * already come, so that it takes the fast path like any other. The clock is read only for a delayed
	 * event: most events are not.
	 */
	private static @Nullable Instant deliveryTime(ResolvedRoute route, @Nullable Instant deliverAt) {
		if (deliverAt == null && route.delay() == null) {
			return null;
		}
		Instant now = Instant.now();
		Instant time = (deliverAt != null) ? deliverAt : now.plus(route.delay());
		return time.isAfter(now) ? time : null;
	}

	/**
	 * The contributed headers, with those of the route's message format and the schema of its payload.
	 */
	private Map<String, String> headers(ResolvedRoute route, EventSerializer.Payload payload) {
		if (route.formatHeaders().isEmpty() && payload.schema() == null) {
			return this.headers;
		}
		Map<String, String> merged = new LinkedHashMap<>(this.headers);
		merged.putAll(route.formatHeaders());
		if (payload.schema() != null) {
			merged.put(OutboxHeaders.PAYLOAD_SCHEMA, payload.schema());
		}
		return merged;
	}

}
