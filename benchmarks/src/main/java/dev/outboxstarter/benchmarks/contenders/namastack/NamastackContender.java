package dev.outboxstarter.benchmarks.contenders.namastack;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

/**
 * namastack-outbox 1.6.0 (JDBC), at its defaults (poll every 2 s, 10 keys a cycle, 4 threads) or
 * tuned (800 keys every 100 ms on 16 threads). Its retries resend by themselves after an outage.
 */
public class NamastackContender extends SpringContender {

	private final boolean tuned;

	public NamastackContender(boolean tuned) {
		this.tuned = tuned;
	}

	@Override
	protected Class<?> application() {
		return NamastackApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		Map<String, Object> properties = new LinkedHashMap<>();
		// Spring Modulith and JPA stay excluded (the shared default): both would claim the
		// applicationEventMulticaster.
		properties.put("namastack.outbox.enabled", true);
		properties.put("outbox.enabled", false);
		// What namastack-outbox-kafka's kafka-json.properties sets.
		properties.put("spring.kafka.producer.value-serializer",
				"org.springframework.kafka.support.serializer.JacksonJsonSerializer");
		if (this.tuned) {
			properties.put("namastack.outbox.polling.batch-size", 800);
			properties.put("namastack.outbox.polling.fixed.interval", "100ms");
			// The executor's queue is unbounded, so the core size is the parallelism; max must be >= core.
			properties.put("namastack.outbox.processing.executor-core-pool-size", 16);
			properties.put("namastack.outbox.processing.executor-max-pool-size", 16);
		}
		return properties;
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(NamastackApplication.Orders.class).place(key, payload);
	}

}
