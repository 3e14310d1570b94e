package dev.outboxstarter.internal.routing;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Where one captured event goes.
 *
 * @param eventType logical event type
 * @param transport transport name
 * @param destination topic or the transport's equivalent
 * @param key message key, if any; in {@link EventRoutes}, none also for a route keyed by the aggregate's id
 * @param formatHeaders headers its message format stores with the event (none for the outbox format)
 * @param delay how long after it is raised it is published at the earliest, {@code null} for at once
 * @param delayHoldsKey whether, delayed, it holds back the later events of its key
 * @param payloadFormat the payload format its route names, {@code null} for the event type's own or the
 * default
 */
public record ResolvedRoute(String eventType, String transport, String destination, @Nullable String key,
		Map<String, String> formatHeaders, @Nullable Duration delay, boolean delayHoldsKey,
		@Nullable String payloadFormat) {

	ResolvedRoute(String eventType, String transport, String destination, @Nullable String key,
			Map<String, String> formatHeaders) {
		this(eventType, transport, destination, key, formatHeaders, null, false, null);
	}

	ResolvedRoute(String eventType, String transport, String destination, @Nullable String key) {
		this(eventType, transport, destination, key, Map.of());
	}

}
