package dev.outboxstarter.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.outboxstarter.benchmarks.Contender;

/**
 * Scenario 6, sustained rate: after the same warm-up as delivery latency's, orders are placed at 500
 * events a second, then 1,000, 1,500 and so on up to {@code maxRate}, each rate held for
 * {@code stepSeconds} on an absolute schedule ({@link PacedWriter}), one step right after the other.
 * Every second the backlog is sampled: events committed ({@code placeOrder} returned) minus events a
 * consumer in the same JVM has received. A step <em>holds</em> when both
 * <ul>
 * <li>the backlog at its end is at most 2 s of its rate ({@code 2 × rate} events), and</li>
 * <li>the backlog is not growing over the second half of the step: the least-squares slope of the
 * samples taken after its midpoint is at most 5% of the rate per second, which is how fast it grows
 * when only 95% of what is written gets delivered.</li>
 * </ul>
 * Stepping stops at the first step that does not hold, and at the first whose writers fell short of
 * the rate (achieved under 95% of it): such a step did not put its rate to the publisher, so it is
 * reported as writer-limited instead of judged. Reports the highest rate that held ({@code 0}: not even
 * the first), the rate that did not hold or was writer-limited, and every step with its samples.
 */
public final class SustainedRate {

	private static final int STEP = 500;

	private static final String PREFIX = "sustained";

	private SustainedRate() {
	}

	public static Map<String, Object> run(Contender contender, String bootstrapServers, String topic, int maxRate,
			int stepSeconds, int warmup) throws Exception {
		AtomicLong committed = new AtomicLong();
		WriteCost.Placed counted = (number, key, start, commit) -> committed.incrementAndGet();
		List<Map<String, Object>> steps = new ArrayList<>();
		int highestHeld = 0;
		Integer failedAt = null;
		Integer writerLimitedAt = null;
		try (Arrivals arrivals = Arrivals.counting(bootstrapServers, topic, PREFIX)) {
			// Counted like the steps' events: any not delivered yet are backlog the first step starts with.
			Latency.warmUp(contender, arrivals, bootstrapServers, topic, PREFIX, warmup, counted);
			for (int rate = STEP; rate <= maxRate; rate += STEP) {
				int first = (int) committed.get();
				Map<String, Object> step = step(contender, arrivals, committed, counted, first, rate, stepSeconds);
				steps.add(step);
				if ((double) step.get("achievedRate") < 0.95 * rate) {
					writerLimitedAt = rate;
					break;
				}
				if (!(boolean) step.get("held")) {
					failedAt = rate;
					break;
				}
				highestHeld = rate;
			}
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("highestHeldRate", highestHeld);
		result.put("failedAtRate", failedAt);
		result.put("writerLimitedAtRate", writerLimitedAt);
		result.put("steps", steps);
		return result;
	}

	/**
	 * One step: the writers place {@code rate × seconds} orders, numbered from {@code first}, on a thread
	 * of their own while this one samples the backlog at every whole second.
	 */
	private static Map<String, Object> step(Contender contender, Arrivals arrivals, AtomicLong committed,
			WriteCost.Placed counted, int first, int rate, int seconds) throws Exception {
		ExecutorService writer = Executors.newSingleThreadExecutor();
		try {
			long start = System.nanoTime();
			Future<Double> achieved = writer
				.submit(() -> PacedWriter.write(contender, PREFIX, first, rate * seconds, rate, counted));
			long[] backlog = new long[seconds];
			for (int second = 1; second <= seconds; second++) {
				// One backlog sample a second, on the step's own clock.
				TimeUnit.NANOSECONDS.sleep(start + TimeUnit.SECONDS.toNanos(second) - System.nanoTime());
				backlog[second - 1] = committed.get() - arrivals.received();
			}
			long atEnd = backlog[seconds - 1];
			double slope = slopeOfSecondHalf(backlog);
			Map<String, Object> step = new LinkedHashMap<>();
			step.put("rate", rate);
			step.put("achievedRate", achieved.get());
			step.put("backlogAtEnd", atEnd);
			step.put("backlogSlopePerSecond", slope);
			step.put("held", atEnd <= 2L * rate && slope <= 0.05 * rate);
			step.put("backlog", backlog);
			return step;
		}
		finally {
			writer.shutdownNow();
		}
	}

	/**
	 * The least-squares slope, in events per second, of the samples taken after the step's midpoint
	 * (sample {@code i} is taken {@code i + 1} seconds into the step); 0 with fewer than two.
	 */
	private static double slopeOfSecondHalf(long[] backlog) {
		int from = backlog.length / 2;
		int n = backlog.length - from;
		if (n < 2) {
			return 0;
		}
		double meanTime = 0;
		double meanBacklog = 0;
		for (int i = from; i < backlog.length; i++) {
			meanTime += i;
			meanBacklog += backlog[i];
		}
		meanTime /= n;
		meanBacklog /= n;
		double covariance = 0;
		double variance = 0;
		for (int i = from; i < backlog.length; i++) {
			covariance += (i - meanTime) * (backlog[i] - meanBacklog);
			variance += (i - meanTime) * (i - meanTime);
		}
		return covariance / variance;
	}

}
