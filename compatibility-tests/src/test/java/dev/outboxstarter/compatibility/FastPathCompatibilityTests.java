package dev.outboxstarter.compatibility;

import dev.outboxstarter.spi.PublishPath;

/**
 * With the starter's defaults, the fast path publishes right after the commit.
 */
class FastPathCompatibilityTests extends CompatibilityTests {

	@Override
	PublishPath expectedPath() {
		return PublishPath.FAST;
	}

}
