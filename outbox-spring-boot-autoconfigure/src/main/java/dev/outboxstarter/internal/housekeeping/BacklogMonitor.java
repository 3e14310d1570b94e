package dev.outboxstarter.internal.housekeeping;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.BacklogSnapshot;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * Reads the backlog (pending and DEAD rows, the oldest pending row's age) with one statement every
 * refresh interval, on its own thread, and keeps the latest reading for the gauges, the health
 * indicator and anything else that asks: however often they ask, the database sees one query per
 * interval per instance.
 */
public class BacklogMonitor implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(BacklogMonitor.class);

	private final StoredEvents storedEvents;

	private final Duration refreshInterval;

	private volatile BacklogSnapshot snapshot = new BacklogSnapshot(null, null, null, Duration.ZERO);

	private volatile boolean running;

	private final Supplier<SimpleAsyncTaskScheduler> schedulers;

	private @Nullable SimpleAsyncTaskScheduler scheduler;

	/**
	 * Creates the monitor.
	 * @param storedEvents reads the backlog
	 * @param refreshInterval pause between readings
	 * @param schedulers a new scheduler for the monitor's thread at each start
	 */
	public BacklogMonitor(StoredEvents storedEvents, Duration refreshInterval,
			Supplier<SimpleAsyncTaskScheduler> schedulers) {
		this.storedEvents = storedEvents;
		this.refreshInterval = refreshInterval;
		this.schedulers = schedulers;
	}

	/**
	 * The latest state.
	 * @return the snapshot
	 */
	public BacklogSnapshot snapshot() {
		return this.snapshot;
	}

	/**
	 * Reads the backlog now.
	 * @return the new snapshot
	 */
	public BacklogSnapshot refresh() {
		BacklogSnapshot previous = this.snapshot;
		long before = System.currentTimeMillis();
		try {
			BacklogReading reading = this.storedEvents.readBacklog();
			long after = System.currentTimeMillis();
			// The database read its clock about halfway through the round trip.
			Duration clockOffset = Duration.ofMillis(reading.databaseNow().toEpochMilli() - (before + after) / 2);
			this.snapshot = new BacklogSnapshot(reading, Instant.ofEpochMilli(after), null, clockOffset);
		}
		catch (RuntimeException ex) {
			String error = NestedExceptionUtils.getMostSpecificCause(ex).toString();
			this.snapshot = new BacklogSnapshot(previous.reading(), previous.readAt(), error, previous.databaseClockOffset());
			logger.warn("Could not read the outbox backlog: " + error);
		}
		return this.snapshot;
	}

	@Override
	public void start() {
		this.running = true;
		refresh();
		this.scheduler = this.schedulers.get();
		this.scheduler.scheduleWithFixedDelay(this::refresh, Instant.now().plus(this.refreshInterval),
				this.refreshInterval);
	}

	@Override
	public void stop() {
		this.running = false;
		SimpleAsyncTaskScheduler scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.close();
			this.scheduler = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
