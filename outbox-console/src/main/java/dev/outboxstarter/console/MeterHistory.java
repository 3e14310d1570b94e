package dev.outboxstarter.console;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;

import dev.outboxstarter.console.OutboxConsoleEndpoint.Sample;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * The outbox's recent history as the application's own meters tell it, sampled on a thread of its own
 * and kept in memory, a bounded number of samples: the backlog and the age of its oldest event as they
 * were, and over each interval the publish and failure rates and the mean commit-to-acknowledgement
 * latency. A meter the application does not have (no metrics, say) reads as {@code null}.
 */
final class MeterHistory implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(MeterHistory.class);

	private final ObjectProvider<MeterRegistry> registry;

	private final Duration interval;

	private final int capacity;

	private final Clock clock;

	private final ArrayDeque<Sample> samples;

	private @Nullable Totals previous;

	private final Supplier<SimpleAsyncTaskScheduler> schedulers;

	private @Nullable SimpleAsyncTaskScheduler sampler;

	private boolean failing;

	/**
	 * Creates the history.
	 * @param registry the application's meters, if it has them
	 * @param interval how often they are sampled
	 * @param capacity how many samples are kept
	 * @param clock the clock samples are taken by
	 * @param schedulers a new scheduler for the sampling thread at each start
	 */
	MeterHistory(ObjectProvider<MeterRegistry> registry, Duration interval, int capacity, Clock clock,
			Supplier<SimpleAsyncTaskScheduler> schedulers) {
		this.registry = registry;
		this.interval = interval;
		this.capacity = capacity;
		this.clock = clock;
		this.schedulers = schedulers;
		this.samples = new ArrayDeque<>(capacity);
	}

	/**
	 * The samples, oldest first.
	 * @return a copy
	 */
	synchronized List<Sample> samples() {
		return List.copyOf(this.samples);
	}

	Duration interval() {
		return this.interval;
	}

	/**
	 * Reads the meters once and keeps the sample, dropping the oldest when full.
	 */
	synchronized void sample() {
		MeterRegistry meters = this.registry.getIfAvailable();
		Instant now = this.clock.instant();
		Totals totals = (meters != null) ? Totals.read(meters, now) : null;
		Sample sample = new Sample(now, (meters != null) ? backlog(meters) : null,
				(meters != null) ? ageSeconds(meters) : null, rate(totals, Totals::published),
				rate(totals, Totals::failed), latencyMillis(totals));
		if (this.samples.size() == this.capacity) {
			this.samples.removeFirst();
		}
		this.samples.addLast(sample);
		this.previous = totals;
	}

	private @Nullable Double rate(@Nullable Totals totals, ToDoubleFunction<Totals> count) {
		Totals previous = this.previous;
		if (totals == null || previous == null) {
			return null;
		}
		double seconds = Duration.between(previous.time(), totals.time()).toNanos() / 1e9;
		return (seconds > 0) ? Math.max(0, count.applyAsDouble(totals) - count.applyAsDouble(previous)) / seconds : null;
	}

	private @Nullable Double latencyMillis(@Nullable Totals totals) {
		Totals previous = this.previous;
		if (totals == null || previous == null || totals.latencyCount() <= previous.latencyCount()) {
			return null;
		}
		return (totals.latencyMillis() - previous.latencyMillis()) / (totals.latencyCount() - previous.latencyCount());
	}

	/**
	 * The backlog of every outbox together: with several, each has its gauge, tagged by its name.
	 */
	private static @Nullable Double backlog(MeterRegistry meters) {
		double[] values = finite(meters.find("outbox.backlog.pending").gauges().stream().mapToDouble(Gauge::value));
		return (values.length > 0) ? DoubleStream.of(values).sum() : null;
	}

	/**
	 * The age of the oldest pending event of any outbox.
	 */
	private static @Nullable Double ageSeconds(MeterRegistry meters) {
		double[] values = finite(meters.find("outbox.backlog.oldest.age")
			.timeGauges()
			.stream()
			.mapToDouble((age) -> age.value(TimeUnit.SECONDS)));
		return (values.length > 0) ? DoubleStream.of(values).max().getAsDouble() : null;
	}

	/**
	 * The values a gauge can be drawn from: one whose object is gone reads {@code NaN}.
	 */
	private static double[] finite(DoubleStream values) {
		return values.filter(Double::isFinite).toArray();
	}

	/**
	 * Samples on the sampler's thread, where an exception would cancel every later sample, silently:
	 * a failure is logged, once until a sample succeeds again, and the next interval samples again.
	 */
	private synchronized void sampleOrWarn() {
		try {
			sample();
			this.failing = false;
		}
		catch (RuntimeException ex) {
			if (!this.failing) {
				logger.warn("Outbox console: could not sample the outbox's meters for its charts; samples are "
						+ "taken again every " + this.interval + " and this is logged again once one has succeeded",
						ex);
			}
			this.failing = true;
		}
	}

	@Override
	public synchronized void start() {
		SimpleAsyncTaskScheduler sampler = this.schedulers.get();
		// With a fixed delay the scheduler runs the samples one after the other on its own thread; at a
		// fixed rate it would start each on a thread of its own, where a slow sample could overlap the next.
		sampler.scheduleWithFixedDelay(this::sampleOrWarn, this.interval);
		this.sampler = sampler;
	}

	@Override
	public synchronized void stop() {
		if (this.sampler != null) {
			this.sampler.close();
			this.sampler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.sampler != null;
	}

	/**
	 * The meters' running totals at one time.
	 */
	private record Totals(Instant time, double published, double failed, long latencyCount, double latencyMillis) {

		static Totals read(MeterRegistry meters, Instant time) {
			double published = meters.find("outbox.events.published").counters().stream().mapToDouble(Counter::count).sum();
			double failed = meters.find("outbox.events.failed").counters().stream().mapToDouble(Counter::count).sum();
			long latencyCount = 0;
			double latencyMillis = 0;
			for (Timer timer : meters.find("outbox.publish.latency").timers()) {
				latencyCount += timer.count();
				latencyMillis += timer.totalTime(TimeUnit.MILLISECONDS);
			}
			return new Totals(time, published, failed, latencyCount, latencyMillis);
		}

	}

}
