package dev.outboxstarter.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.outboxstarter.benchmarks.Contender;
import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.testsupport.TcpForwarder;

/**
 * Scenario 4, scale-out: the backlog drain ({@link BacklogDrain}) with several instances publishing
 * together. The first instance writes the backlog while the broker is unreachable; the others start
 * after it, still before the broker is reachable again; then all of them drain it. A backlog is the
 * relays' work (the fast path only ever has the writing instance's own events, which failed while the
 * broker was away), and each instance runs its own relay, sharing the rows through {@code SKIP LOCKED}.
 * <p>
 * The instances are application contexts of their own in this one JVM, each with its own relay, fast
 * path, producer and connection pool, on the same schema. Unlike separate processes they share this
 * JVM's heap, and on a 2-core machine they share the CPU with each other, the consumer, PostgreSQL
 * and the broker: what this shows is how far instances get in each other's way, not how far more
 * hardware would take them.
 */
public final class ScaleOut {

	private ScaleOut() {
	}

	/**
	 * @param first the instance that writes the backlog, started on {@code settings}
	 * @param more makes each further instance
	 * @param settings where every instance finds the database and the (closed) broker
	 * @param instances how many instances drain, {@code first} included
	 */
	public static Map<String, Object> run(Contender first, Supplier<Contender> more, ContenderSettings settings,
			int instances, TcpForwarder broker, String bootstrapServers, String topic, int events, Duration limit)
			throws Exception {
		Map<String, Object> writes = BacklogDrain.write(first, events);
		List<Contender> all = new ArrayList<>(List.of(first));
		try {
			for (int i = 1; i < instances; i++) {
				Contender instance = more.get();
				all.add(instance);
				instance.start(settings);
			}
			Map<String, Object> result = BacklogDrain.drain(all, broker, bootstrapServers, topic, events, limit);
			result.put("instances", instances);
			result.putAll(writes);
			return result;
		}
		finally {
			all.subList(1, all.size()).forEach(Contender::close);
		}
	}

}
