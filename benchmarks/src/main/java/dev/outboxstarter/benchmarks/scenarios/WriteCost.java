package dev.outboxstarter.benchmarks.scenarios;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.outboxstarter.benchmarks.Contender;

/**
 * Scenario 1, write cost: business transactions (one order insert and one event) as fast as
 * {@code concurrency} threads can run them, with the contender publishing meanwhile; latency per
 * transaction and transactions per second, after a warm-up.
 */
public final class WriteCost {

	private WriteCost() {
	}

	public static Map<String, Object> run(Contender contender, int transactions, int concurrency, int warmup,
			String keyPrefix) throws Exception {
		place(contender, "warmup", warmup, concurrency, null);
		long[] latencies = new long[transactions];
		long started = System.nanoTime();
		place(contender, keyPrefix, transactions, concurrency, latencies);
		double seconds = (System.nanoTime() - started) / 1e9;
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("transactionsPerSecond", transactions / seconds);
		result.put("p50Millis", Measurements.percentileMillis(latencies, 50));
		result.put("p99Millis", Measurements.percentileMillis(latencies, 99));
		return result;
	}

	private static void place(Contender contender, String prefix, int count, int concurrency, long[] latencies)
			throws Exception {
		AtomicInteger next = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(concurrency);
		try {
			Future<?>[] workers = new Future<?>[concurrency];
			for (int t = 0; t < concurrency; t++) {
				workers[t] = threads.submit(() -> {
					int i;
					while ((i = next.getAndIncrement()) < count) {
						String key = prefix + "-" + i;
						long start = System.nanoTime();
						contender.placeOrder(key, Measurements.payload(key));
						if (latencies != null) {
							latencies[i] = System.nanoTime() - start;
						}
					}
				});
			}
			for (Future<?> worker : workers) {
				worker.get();
			}
		}
		finally {
			threads.shutdown();
		}
	}

}
