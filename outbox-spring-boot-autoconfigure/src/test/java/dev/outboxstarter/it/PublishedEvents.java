package dev.outboxstarter.it;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.PublishPath;

/**
 * Records which path published which event, as the application sees it.
 */
public class PublishedEvents implements OutboxDeliveryListener {

	private final Set<UUID> fast = ConcurrentHashMap.newKeySet();

	private final Set<UUID> relay = ConcurrentHashMap.newKeySet();

	@Override
	public void published(PublishPath path, String transport, OutboxMessage message, Instant acknowledgedAt) {
		((path == PublishPath.FAST) ? this.fast : this.relay).add(message.id());
	}

	public Set<UUID> byFastPath() {
		return this.fast;
	}

	public Set<UUID> byRelay() {
		return this.relay;
	}

	public int total() {
		return this.fast.size() + this.relay.size();
	}

}
