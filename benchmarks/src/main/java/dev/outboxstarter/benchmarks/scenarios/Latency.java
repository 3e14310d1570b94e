package dev.outboxstarter.benchmarks.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import dev.outboxstarter.benchmarks.Contender;
import org.jspecify.annotations.Nullable;

/**
 * Scenario 2, delivery latency: how long after its business transaction committed an event reaches a
 * consumer, at a steady rate ({@link #steady}) or with 8 threads writing as fast as they can
 * ({@link #burst}, write cost's closed loop). The commit is when {@code placeOrder} returned
 * ({@link System#nanoTime()} on the writing thread); the arrival is when a consumer in the same JVM,
 * subscribed and assigned before the first write, polled the event. An event that arrived before its
 * {@code placeOrder} returned (a fast path can publish before the caller's method is done) counts as
 * 0 ms and is counted in {@code earlyArrivals}. Reports p50, p99 and max in milliseconds.
 * <p>
 * First the closed loop runs until the compiler is quiet ({@link WarmUp}), then {@code warmup} more
 * events go through it, and the scenario waits up to 5 minutes for all of these to arrive so that
 * measured events do not queue behind them ({@code warmupReceived} says how many of the last
 * {@code warmup} did). Once the measured events are written it waits up to {@code limit} for all of
 * them; if some are still missing the percentiles are {@code null} and {@code lost} says how many did
 * not arrive within the limit.
 * <p>
 * The same run gives the whole cycle's cost: from the first measured write to the last arrival, the CPU
 * time of the contender's JVM (less its consumer's polling thread), of the database server and of the
 * broker process ({@link CpuTime}), per event, their sum, the bytes the JVM allocated per event, and the
 * wall time to the last arrival; only when every event arrived.
 */
public final class Latency {

	private static final String PREFIX = "latency";

	/**
	 * How long to wait for the warm-up's events. A warm-up of 200,000 events, written flat out, takes a
	 * peer that delivers about 1,000 a second over 3 minutes to deliver; measured events must not queue
	 * behind it. A contender that never catches up (namastack-outbox at its defaults) spends the whole
	 * wait.
	 */
	private static final Duration WARMUP_ARRIVAL = Duration.ofMinutes(5);

	private static final int CONCURRENCY = 8;

	private Latency() {
	}

	/**
	 * {@code rate} events a second for {@code seconds}, on an absolute schedule ({@link PacedWriter}).
	 * Also reports the achieved rate.
	 */
	public static Map<String, Object> steady(Contender contender, @Nullable BenchmarkDatabase database,
			String bootstrapServers, String topic, int rate, int seconds, int warmup, Duration limit)
			throws Exception {
		int events = rate * seconds;
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("targetRate", rate);
		measure(contender, database, bootstrapServers, topic, warmup, events, limit, result, (placed) -> result
			.put("achievedRate", PacedWriter.write(contender, PREFIX, warmup, events, rate, placed)));
		return result;
	}

	/**
	 * {@code transactions} events from 8 threads writing as fast as they can. Also reports the
	 * transactions per second.
	 */
	public static Map<String, Object> burst(Contender contender, @Nullable BenchmarkDatabase database,
			String bootstrapServers, String topic, int transactions, int warmup, Duration limit) throws Exception {
		Map<String, Object> result = new LinkedHashMap<>();
		measure(contender, database, bootstrapServers, topic, warmup, transactions, limit, result, (placed) -> {
			long started = System.nanoTime();
			WriteCost.place(contender, PREFIX, warmup, transactions, CONCURRENCY, placed);
			result.put("transactionsPerSecond", transactions / ((System.nanoTime() - started) / 1e9));
		});
		return result;
	}

	private static void measure(Contender contender, @Nullable BenchmarkDatabase database, String bootstrapServers,
			String topic, int warmup, int events, Duration limit, Map<String, Object> result, Writes writes)
			throws Exception {
		long[] committed = new long[warmup + events];
		Arrivals arrivals = Arrivals.timing(bootstrapServers, topic, PREFIX, warmup + events);
		CycleReading cycleStart;
		CycleReading cycleEnd;
		try {
			result.put("warmupTransactions",
					warmUp(contender, arrivals, bootstrapServers, topic, PREFIX, warmup, WriteCost.Placed.NOTHING));
			cycleStart = CycleReading.now(database, arrivals);
			writes.write((number, key, start, commit) -> committed[number] = commit);
			arrivals.await(warmup + events, System.nanoTime() + limit.toNanos());
			cycleEnd = CycleReading.now(database, arrivals);
		}
		finally {
			arrivals.close();
		}
		long[] latencies = new long[events];
		int received = 0;
		int early = 0;
		for (int number = warmup; number < warmup + events; number++) {
			long arrived = arrivals.arrivedAt(number);
			if (arrived != Arrivals.NOT_ARRIVED) {
				long latency = arrived - committed[number];
				latencies[received++] = Math.max(0, latency);
				if (latency < 0) {
					early++;
				}
			}
		}
		int warmupReceived = 0;
		for (int number = 0; number < warmup; number++) {
			if (arrivals.arrivedAt(number) != Arrivals.NOT_ARRIVED) {
				warmupReceived++;
			}
		}
		boolean all = received == events;
		// A contender too slow for the warm-up delivers it before any measured event: this shows it did deliver.
		result.put("warmupReceived", warmupReceived);
		result.put("events", events);
		result.put("received", received);
		result.put("lost", events - received);
		result.put("earlyArrivals", early);
		result.put("p50Millis", all ? Measurements.percentileMillis(latencies, 50) : null);
		result.put("p99Millis", all ? Measurements.percentileMillis(latencies, 99) : null);
		result.put("maxMillis", all ? Measurements.percentileMillis(latencies, 100) : null);
		if (all) {
			long lastArrival = Long.MIN_VALUE;
			for (int number = warmup; number < warmup + events; number++) {
				lastArrival = Math.max(lastArrival, arrivals.arrivedAt(number));
			}
			result.putAll(cycleEnd.costSince(cycleStart, events, lastArrival));
		}
	}

	/**
	 * What the whole cycle has cost so far: CPU time of the JVM, its consumer, the database server and
	 * the broker, and the JVM's allocated bytes.
	 */
	private record CycleReading(long nanoTime, CpuTime cpu, long consumerCpuNanos, long jvmAllocatedBytes) {

		static CycleReading now(@Nullable BenchmarkDatabase database, Arrivals arrivals) {
			return new CycleReading(System.nanoTime(), CpuTime.now(database), arrivals.consumerCpuNanos(),
					WriteCost.jvmAllocatedBytes());
		}

		/**
		 * The cycle's cost per event since {@code start}, which was read just before the first write.
		 */
		Map<String, Object> costSince(CycleReading start, int events, long lastArrival) {
			Map<String, Object> cost = new LinkedHashMap<>();
			cost.put("cycleSecondsToLastArrival", (lastArrival - start.nanoTime) / 1e9);
			double consumer = (this.consumerCpuNanos >= 0 && start.consumerCpuNanos >= 0)
					? (this.consumerCpuNanos - start.consumerCpuNanos) / 1000.0 / events : 0;
			double jvm = this.cpu.jvmMicrosPerOperationSince(start.cpu, events) - consumer;
			Double databaseCpu = this.cpu.databaseMicrosPerOperationSince(start.cpu, events);
			Double broker = this.cpu.brokerMicrosPerOperationSince(start.cpu, events);
			cost.put("cycleJvmCpuMicrosPerEvent", jvm);
			cost.put("cycleDatabaseCpuMicrosPerEvent", databaseCpu);
			cost.put("cycleBrokerCpuMicrosPerEvent", broker);
			cost.put("cycleConsumerCpuMicrosPerEvent", consumer);
			cost.put("cycleCpuMicrosPerEvent",
					jvm + ((databaseCpu != null) ? databaseCpu : 0) + ((broker != null) ? broker : 0));
			cost.put("cycleJvmAllocatedBytesPerEvent",
					(this.jvmAllocatedBytes - start.jvmAllocatedBytes) / (double) events);
			return cost;
		}

	}

	/**
	 * Places orders under keys of their own until the compiler is quiet ({@link WarmUp}), then
	 * {@code warmup} orders through the closed loop, numbered from 0 under {@code prefix}, and waits up
	 * to 5 minutes for all of them to arrive ({@code arrivals} counts the latter): a contender that does
	 * not publish in commit order would otherwise still be publishing the former while the measured
	 * events queue behind them.
	 * @return how many orders the warm-up placed
	 */
	static int warmUp(Contender contender, Arrivals arrivals, String bootstrapServers, String topic, String prefix,
			int warmup, WriteCost.Placed placed) throws Exception {
		int compiling = WarmUp.untilCompiled(contender, CONCURRENCY, warmup);
		WriteCost.place(contender, prefix, 0, warmup, CONCURRENCY, placed);
		long deadline = System.nanoTime() + WARMUP_ARRIVAL.toNanos();
		if (compiling > 0) {
			try (Arrivals compiled = Arrivals.counting(bootstrapServers, topic, WarmUp.PREFIX)) {
				compiled.await(compiling, deadline);
			}
		}
		arrivals.await(warmup, deadline);
		return compiling + warmup;
	}

	/**
	 * Writes the measured events, telling {@code placed} of each.
	 */
	@FunctionalInterface
	private interface Writes {

		void write(WriteCost.Placed placed) throws Exception;

	}

}
