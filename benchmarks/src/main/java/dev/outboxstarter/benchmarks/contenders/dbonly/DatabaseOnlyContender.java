package dev.outboxstarter.benchmarks.contenders.dbonly;

import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

/**
 * No events at all: what the business transaction costs by itself.
 */
public class DatabaseOnlyContender extends SpringContender {

	@Override
	protected Class<?> application() {
		return DatabaseOnlyApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		return Map.of("outbox.enabled", false);
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(DatabaseOnlyApplication.Orders.class).place(key);
	}

}
