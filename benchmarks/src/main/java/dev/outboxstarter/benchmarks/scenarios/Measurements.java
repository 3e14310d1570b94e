package dev.outboxstarter.benchmarks.scenarios;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * What the scenarios measure with: percentiles, the event payload, peak heap, heap after collections.
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

	/**
	 * The largest heap in use right after a collection, from the collectors' notifications while it is
	 * open: what the live data took, where the peak heap also counts garbage not collected yet.
	 */
	static final class HeapAfterCollections implements AutoCloseable {

		private final List<String> heapPools = ManagementFactory.getMemoryPoolMXBeans()
			.stream()
			.filter((pool) -> pool.getType() == MemoryType.HEAP)
			.map(MemoryPoolMXBean::getName)
			.toList();

		private final AtomicLong peakBytes = new AtomicLong();

		private final NotificationListener listener = (notification, handback) -> {
			if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
				var after = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
					.getGcInfo()
					.getMemoryUsageAfterGc();
				long used = this.heapPools.stream().map(after::get).mapToLong(MemoryUsage::getUsed).sum();
				this.peakBytes.accumulateAndGet(used, Math::max);
			}
		};

		HeapAfterCollections() {
			for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
				((NotificationEmitter) collector).addNotificationListener(this.listener, null, null);
			}
		}

		/**
		 * @return megabytes, 0 if no collection ran
		 */
		double peakMegabytes() {
			return this.peakBytes.get() / (1024.0 * 1024.0);
		}

		@Override
		public void close() throws Exception {
			for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
				((NotificationEmitter) collector).removeNotificationListener(this.listener);
			}
		}

	}

}
