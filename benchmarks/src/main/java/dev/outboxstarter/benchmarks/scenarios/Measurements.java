package dev.outboxstarter.benchmarks.scenarios;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Arrays;

/**
 * What the scenarios measure with: percentiles, the event payload, peak heap.
 */
final class Measurements {

	private Measurements() {
	}

	/**
	 * The value at a percentile, nearest rank.
	 * @param nanos recorded values in nanoseconds
	 * @param percentile from 0 to 100
	 * @return the value in milliseconds
	 */
	static double percentileMillis(long[] nanos, double percentile) {
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		int rank = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(rank, sorted.length - 1))] / 1_000_000.0;
	}

	/**
	 * An event of a realistic size (about 200 bytes of JSON) that names its order.
	 * @param key the order id
	 * @return the JSON
	 */
	static String payload(String key) {
		return "{\"orderId\":\"" + key + "\",\"customer\":\"customer-" + key.hashCode()
				+ "\",\"amount\":42.50,\"currency\":\"EUR\",\"lines\":3,\"note\":\"benchmark order placed through the outbox\"}";
	}

	static void resetPeakHeap() {
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP) {
				pool.resetPeakUsage();
			}
		}
	}

	/**
	 * The sum of the heap pools' peak usage since the last reset (an upper bound of the peak heap).
	 * @return megabytes
	 */
	static double peakHeapMegabytes() {
		long bytes = 0;
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP) {
				bytes += pool.getPeakUsage().getUsed();
			}
		}
		return bytes / (1024.0 * 1024.0);
	}

}
