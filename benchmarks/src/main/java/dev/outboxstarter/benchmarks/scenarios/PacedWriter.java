package dev.outboxstarter.benchmarks.scenarios;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import dev.outboxstarter.benchmarks.Contender;

/**
 * Places orders at a steady rate on an absolute schedule: the order numbered {@code first + i} is due
 * at {@code start + i / rate}, whatever happened to the ones before it. A small pool of threads takes
 * the due orders in turn, so one slow commit delays only its own order, not the schedule; only when
 * every thread is busy past a due time does the schedule slip, and the achieved rate shows it.
 */
final class PacedWriter {

	/** As many threads as write cost's closed loop at 8: the most this harness asks of any contender. */
	private static final int THREADS = 8;

	private PacedWriter() {
	}

	/**
	 * Places {@code count} orders at {@code rate}, with keys {@code <prefix>-<number>} numbered from
	 * {@code first}.
	 * @return the achieved rate: orders per second from the start until the last one returned
	 */
	static double write(Contender contender, String prefix, int first, int count, double rate,
			WriteCost.Placed placed) throws Exception {
		AtomicInteger next = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(THREADS);
		long start = System.nanoTime();
		try {
			Future<?>[] workers = new Future<?>[THREADS];
			for (int t = 0; t < THREADS; t++) {
				workers[t] = threads.submit(() -> {
					int i;
					while ((i = next.getAndIncrement()) < count) {
						long due = start + (long) (i * 1e9 / rate);
						long wait;
						// Each event waits for its own due time on the absolute schedule, so a slow
						// commit delays that event only, not the ones after it.
						while ((wait = due - System.nanoTime()) > 0) {
							LockSupport.parkNanos(wait);
						}
						int number = first + i;
						String key = prefix + "-" + number;
						long started = System.nanoTime();
						contender.placeOrder(key, Measurements.payload(key));
						placed.placed(number, key, started, System.nanoTime());
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
		return count / ((System.nanoTime() - start) / 1e9);
	}

}
