package dev.outboxstarter.benchmarks.contenders.naive;

import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

/**
 * The naive dual write, the speed reference: not reliable.
 */
public class NaiveDualWriteContender extends SpringContender {

	@Override
	protected Class<?> application() {
		return NaiveDualWriteApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		return Map.of("outbox.enabled", false);
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(NaiveDualWriteApplication.Orders.class).place(key, payload);
	}

}
