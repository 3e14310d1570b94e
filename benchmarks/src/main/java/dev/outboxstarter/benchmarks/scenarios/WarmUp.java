package dev.outboxstarter.benchmarks.scenarios;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

import dev.outboxstarter.benchmarks.Contender;

/**
 * The first part of the warm-up before a measurement: rounds of transactions through the closed loop
 * for as long as the JIT compiler was busy during the last one; the scenario's fixed warm-up follows.
 * A fixed count alone is not the same warm-up for every contender: code that runs once per batch
 * rather than once per transaction (an outbox's publishing loop, the Kafka producer's network thread)
 * has run far fewer times when the batches are large, and was measured still being compiled: after
 * 40,000 transactions at 8 threads, the compiler threads spent 3.4 s in compilations of over 100 ms
 * during the starter's 10 s measurement (0.5 s during its relay-only run's), on the same two cores as
 * the measured threads. Every contender gets the same rule, so each is measured as the long-running
 * process it is in production.
 */
final class WarmUp {

	/** Keys of these rounds, which the scenarios' consumers do not count. */
	static final String PREFIX = "jit-warmup";

	private static final int ROUND = 10_000;

	/** Compiling for less than this share of a round's time counts as done. */
	private static final double QUIET_SHARE = 0.03;

	/** The most orders these rounds place, as a multiple of the scenario's fixed warm-up. */
	private static final int MOST_PER_FIXED_WARMUP = 4;

	private WarmUp() {
	}

	/**
	 * Places rounds of 10,000 orders, under keys of their own, until the compiler spent less than 3% of
	 * a round's time compiling or 4 times {@code fixedWarmup} orders are placed (none when it is 0).
	 * @return how many orders it took
	 */
	static int untilCompiled(Contender contender, int concurrency, int fixedWarmup) throws Exception {
		CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
		if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()
				|| !Boolean.parseBoolean(System.getProperty(WriteCost.WARMUP_UNTIL_QUIET_PROPERTY, "true"))) {
			return 0;
		}
		int placed = 0;
		while (placed < MOST_PER_FIXED_WARMUP * fixedWarmup) {
			long compilingBefore = compiler.getTotalCompilationTime();
			long started = System.nanoTime();
			WriteCost.place(contender, PREFIX, placed, ROUND, concurrency, WriteCost.Placed.NOTHING);
			placed += ROUND;
			double millis = (System.nanoTime() - started) / 1e6;
			long compiling = compiler.getTotalCompilationTime() - compilingBefore;
			System.out.printf("warm-up: %,d orders, compiling for %,d ms of the last round's %,.0f ms%n", placed,
					compiling, millis);
			if (compiling < QUIET_SHARE * millis) {
				break;
			}
		}
		return placed;
	}

}
