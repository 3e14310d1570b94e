package dev.outboxstarter.sample.load;

import java.math.BigDecimal;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.outboxstarter.sample.orders.OrderService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Places a number of orders at a steady rate, each in its own transaction, on a thread of its own,
 * so a person can watch the outbox under load on the sample page.
 */
@Component
public class LoadGenerator implements DisposableBean {

	private static final Logger logger = LoggerFactory.getLogger(LoadGenerator.class);

	/** Orders are placed in ticks of this length, each placing its share of the rate. */
	private static final long TICK_MILLIS = 50;

	private final OrderService orders;

	private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "sample-load");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicInteger placed = new AtomicInteger();

	private final AtomicInteger failed = new AtomicInteger();

	private final AtomicInteger runs = new AtomicInteger();

	private volatile int run;

	private volatile int requested;

	private volatile int rate;

	private ScheduledFuture<?> ticks;

	public LoadGenerator(OrderService orders) {
		this.orders = orders;
	}

	/**
	 * Starts placing orders, unless a run is still going.
	 * @param count how many orders
	 * @param perSecond how many per second
	 * @return the state
	 * @throws IllegalStateException if a run is still going
	 */
	public synchronized Progress start(int count, int perSecond) {
		if (isRunning()) {
			throw new IllegalStateException("A load run is still placing orders: wait for it to finish");
		}
		this.run = this.runs.incrementAndGet();
		this.requested = count;
		this.rate = perSecond;
		this.placed.set(0);
		this.failed.set(0);
		this.ticks = this.scheduler.scheduleAtFixedRate(new Tick(perSecond * TICK_MILLIS / 1000.0), 0, TICK_MILLIS,
				TimeUnit.MILLISECONDS);
		logger.info("Placing {} orders at {} per second", count, perSecond);
		return progress();
	}

	private void placeOne() {
		try {
			// Customers are named after the run, e.g. load3-17: the 17th order of the third run.
			this.orders.place("load" + this.run + "-" + (this.placed.get() + this.failed.get() + 1),
					new BigDecimal("9.99"));
			this.placed.incrementAndGet();
		}
		catch (RuntimeException ex) {
			this.failed.incrementAndGet();
			logger.warn("A load order failed: {}", ex.toString());
		}
	}

	public boolean isRunning() {
		return this.ticks != null && !this.ticks.isDone();
	}

	public Progress progress() {
		return new Progress(this.run, isRunning(), this.requested, this.rate, this.placed.get(), this.failed.get());
	}

	@Override
	public void destroy() {
		this.scheduler.shutdownNow();
	}

	/**
	 * Where a load run stands.
	 *
	 * @param run the run's number, from 1; its orders' customers are {@code load<run>-<n>}
	 * @param running whether it is still placing orders
	 * @param requested orders it was asked to place
	 * @param rate orders per second
	 * @param placed orders placed (committed)
	 * @param failed orders that failed
	 */
	public record Progress(int run, boolean running, int requested, int rate, int placed, int failed) {
	}

	/**
	 * One tick of a run: places the orders that have come due, a fraction of an order carried over to
	 * the next tick, and ends the run once all are placed.
	 */
	private final class Tick implements Runnable {

		private final double ordersPerTick;

		private double due;

		Tick(double ordersPerTick) {
			this.ordersPerTick = ordersPerTick;
		}

		@Override
		public void run() {
			this.due += this.ordersPerTick;
			while (this.due >= 1 && !allPlaced()) {
				this.due--;
				placeOne();
			}
			if (allPlaced()) {
				throw new LoadFinished();
			}
		}

		private boolean allPlaced() {
			return LoadGenerator.this.placed.get() + LoadGenerator.this.failed.get() >= LoadGenerator.this.requested;
		}

	}

	/** Ends a fixed-rate run from inside its task. */
	private static final class LoadFinished extends RuntimeException {

		LoadFinished() {
			super(null, null, false, false);
		}

	}

}
