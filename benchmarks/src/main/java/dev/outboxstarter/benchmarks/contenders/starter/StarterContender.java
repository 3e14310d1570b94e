package dev.outboxstarter.benchmarks.contenders.starter;

import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

/**
 * This starter at its defaults but for the given {@code outbox.*} properties: with the fast path on
 * (publish right after the commit), off (the relay publishes everything), with two threads, or with
 * both the fast path and the relay off (the capture alone: rows are written and never published).
 */
public class StarterContender extends SpringContender {

	private final Map<String, Object> outboxProperties;

	public StarterContender(Map<String, Object> outboxProperties) {
		this.outboxProperties = Map.copyOf(outboxProperties);
	}

	@Override
	protected Class<?> application() {
		return StarterApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		return this.outboxProperties;
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(StarterApplication.Orders.class).place(key, payload);
	}

}
