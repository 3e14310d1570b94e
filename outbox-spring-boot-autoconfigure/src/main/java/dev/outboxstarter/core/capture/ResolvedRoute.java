package dev.outboxstarter.core.capture;

import org.jspecify.annotations.Nullable;

/**
 * Where one captured event goes.
 *
 * @param eventType logical event type
 * @param transport transport name
 * @param destination topic or the transport's equivalent
 * @param key message key, if any
 */
record ResolvedRoute(String eventType, String transport, String destination, @Nullable String key) {
}
