package dev.outboxstarter.benchmarks.contenders.starter;

import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

/**
 * This starter at its defaults, with the fast path on (publish right after the commit) or off (the
 * relay publishes everything).
 */
public class StarterContender extends SpringContender {

	private final boolean fastPath;

	public StarterContender(boolean fastPath) {
		this.fastPath = fastPath;
	}

	@Override
	protected Class<?> application() {
		return StarterApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		return Map.of("outbox.fast-path.enabled", this.fastPath);
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(StarterApplication.Orders.class).place(key, payload);
	}

}
