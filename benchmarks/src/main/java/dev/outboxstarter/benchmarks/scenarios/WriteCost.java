package dev.outboxstarter.benchmarks.scenarios;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import com.sun.management.ThreadMXBean;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import dev.outboxstarter.benchmarks.Contender;
import dev.outboxstarter.benchmarks.ContenderSettings;

/**
 * Scenario 1, write cost: business transactions (one order insert and one event) as fast as
 * {@code concurrency} threads can run them, with the contender publishing meanwhile; latency per
 * transaction and transactions per second, after a warm-up; and the CPU time the contender's JVM and
 * the database server spent per transaction meanwhile (publishing included), and the WAL, transactions
 * and rows it wrote per transaction ({@link DatabaseWork}), and the bytes the JVM allocated per
 * transaction, in all and on the writer threads. The warm-up runs
 * until the compiler is quiet ({@link WarmUp}), then {@code warmup} more transactions.
 */
public final class WriteCost {

	/**
	 * The system property that, {@code false}, leaves out the warm-up's rounds until the compiler is quiet
	 * ({@link WarmUp}): the warm-up is then the scenario's fixed one alone.
	 */
	public static final String WARMUP_UNTIL_QUIET_PROPERTY = "outbox.bench.warmup-until-quiet";

	private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

	private WriteCost() {
	}

	/**
	 * The bytes every thread of the JVM has allocated so far.
	 * @return the bytes
	 */
	static long jvmAllocatedBytes() {
		return THREADS.getTotalThreadAllocatedBytes();
	}

	static Map<String, Object> run(Contender contender, int transactions, int concurrency, int warmup,
			String keyPrefix) throws Exception {
		return run(contender, null, transactions, concurrency, warmup, keyPrefix);
	}

	/**
	 * Measures, and with {@code settings} also reads what the database did ({@link DatabaseWork}).
	 */
	public static Map<String, Object> run(Contender contender, ContenderSettings settings, int transactions,
			int concurrency, int warmup, String keyPrefix) throws Exception {
		int compilingWarmup = WarmUp.untilCompiled(contender, concurrency, warmup);
		place(contender, "warmup", 0, warmup, concurrency, Placed.NOTHING);
		long[] latencies = new long[transactions];
		DatabaseWork workBefore = (settings != null) ? DatabaseWork.now(settings.jdbcUrl(), settings.username()) : null;
		LongAdder writersAllocated = new LongAdder();
		long jvmAllocatedBefore = THREADS.getTotalThreadAllocatedBytes();
		BenchmarkDatabase database = (settings != null) ? BenchmarkDatabase.of(settings.jdbcUrl()) : null;
		CpuTime cpuBefore = CpuTime.now(database);
		long started = System.nanoTime();
		place(contender, keyPrefix, 0, transactions, concurrency,
				(number, key, start, committed) -> latencies[number] = committed - start, writersAllocated);
		double seconds = (System.nanoTime() - started) / 1e9;
		CpuTime cpuAfter = CpuTime.now(database);
		long jvmAllocated = THREADS.getTotalThreadAllocatedBytes() - jvmAllocatedBefore;
		DatabaseWork workAfter = (settings != null) ? DatabaseWork.now(settings.jdbcUrl(), settings.username()) : null;
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("transactionsPerSecond", transactions / seconds);
		result.put("p50Millis", Measurements.percentileMillis(latencies, 50));
		result.put("p99Millis", Measurements.percentileMillis(latencies, 99));
		result.put("jvmCpuMicrosPerTransaction", cpuAfter.jvmMicrosPerOperationSince(cpuBefore, transactions));
		result.put("databaseCpuMicrosPerTransaction", cpuAfter.databaseMicrosPerOperationSince(cpuBefore, transactions));
		result.put("jvmAllocatedBytesPerTransaction", jvmAllocated / (double) transactions);
		result.put("writerAllocatedBytesPerTransaction", writersAllocated.sum() / (double) transactions);
		if (workBefore != null && workAfter != null) {
			result.putAll(workAfter.perOperationSince(workBefore, transactions));
		}
		result.put("warmupTransactions", compilingWarmup + warmup);
		return result;
	}

	/**
	 * The closed loop: {@code concurrency} threads place orders one after the other, each as soon as its
	 * previous one returned, until {@code count} are placed. Keys are {@code <prefix>-<number>}, numbered
	 * from {@code first}.
	 */
	static void place(Contender contender, String prefix, int first, int count, int concurrency, Placed placed)
			throws Exception {
		place(contender, prefix, first, count, concurrency, placed, new LongAdder());
	}

	/**
	 * The closed loop, adding up the bytes its threads allocated in {@code allocated}: what the business
	 * transactions cost on the threads that run them (the floor's own share included).
	 */
	static void place(Contender contender, String prefix, int first, int count, int concurrency, Placed placed,
			LongAdder allocated) throws Exception {
		AtomicInteger next = new AtomicInteger(first);
		ExecutorService threads = Executors.newFixedThreadPool(concurrency);
		try {
			Future<?>[] workers = new Future<?>[concurrency];
			for (int t = 0; t < concurrency; t++) {
				workers[t] = threads.submit(() -> {
					long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
					int number;
					while ((number = next.getAndIncrement()) < first + count) {
						String key = prefix + "-" + number;
						long start = System.nanoTime();
						contender.placeOrder(key, Measurements.payload(key));
						placed.placed(number, key, start, System.nanoTime());
					}
					allocated.add(THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore);
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

	/**
	 * Told of every order placed, on the thread that placed it.
	 */
	@FunctionalInterface
	interface Placed {

		Placed NOTHING = (number, key, start, committed) -> {
		};

		/**
		 * @param number the number in the event's key
		 * @param key the event's key
		 * @param start {@link System#nanoTime()} before {@code placeOrder}
		 * @param committed {@link System#nanoTime()} once {@code placeOrder} returned: the commit
		 */
		void placed(int number, String key, long start, long committed);

	}

}
