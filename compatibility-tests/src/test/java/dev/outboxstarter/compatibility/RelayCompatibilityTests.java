package dev.outboxstarter.compatibility;

import dev.outboxstarter.spi.PublishPath;

import org.springframework.test.context.TestPropertySource;

/**
 * Without the fast path, the polling relay publishes what was committed.
 */
@TestPropertySource(properties = { "outbox.fast-path.enabled=false", "outbox.relay.poll-interval=100ms" })
class RelayCompatibilityTests extends CompatibilityTests {

	@Override
	PublishPath expectedPath() {
		return PublishPath.RELAY;
	}

}
