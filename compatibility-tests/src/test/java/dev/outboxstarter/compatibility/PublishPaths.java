package dev.outboxstarter.compatibility;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.PublishPath;

import org.springframework.stereotype.Component;

/**
 * Which path published each message, by message key: the fast path or the relay.
 */
@Component
class PublishPaths implements OutboxDeliveryListener {

	private final Map<String, PublishPath> byKey = new ConcurrentHashMap<>();

	@Override
	public void published(PublishPath path, String transport, OutboxMessage message, Instant acknowledgedAt) {
		if (message.key() != null) {
			this.byKey.put(message.key(), path);
		}
	}

	PublishPath of(String key) {
		return this.byKey.get(key);
	}

}
