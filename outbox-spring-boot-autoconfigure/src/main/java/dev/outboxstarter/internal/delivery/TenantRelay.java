package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.util.Assert;

/**
 * Relays the outboxes of many tenants on a fixed number of threads. Every poll interval a round
 * begins: the tenants are asked for, and each one that is not backing off gets a turn in a queue that
 * the threads share. A turn publishes one batch of the tenant's due rows ({@link Drain}); a tenant
 * with more goes back to the end of the queue, so a tenant's backlog delays any other tenant by at
 * most one batch per turn, however large it is. A tenant whose outbox cannot be reached is left alone
 * for the failure backoff, so it costs at most one failed attempt per thread in that time.
 * <p>
 * Each thread holds at most one connection at a time: the relay's connections are bounded by its
 * threads, not by the number of tenants.
 */
public class TenantRelay implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(TenantRelay.class);

	private final RelayedTenants tenants;

	private final int batchSize;

	private final Duration pollInterval;

	private final int threads;

	private final Duration failureBackoff;

	private final Duration shutdownTimeout;

	private final Supplier<SimpleAsyncTaskScheduler> schedulers;

	/** Held by a round while it runs, so that stopping can wait for the batches in flight. */
	private final ReentrantLock rounds = new ReentrantLock();

	private final Map<String, Failure> failing = new ConcurrentHashMap<>();

	private volatile boolean running;

	private volatile int tenantCount;

	private volatile @Nullable Instant lastRound;

	private @Nullable SimpleAsyncTaskScheduler scheduler;

	/** The threads that take turns beside the round's own, kept from one round to the next. */
	private @Nullable ExecutorService helpers;

	/**
	 * Creates the relay.
	 * @param tenants the tenants' outboxes
	 * @param batchSize most rows per batch
	 * @param pollInterval pause between rounds
	 * @param threads how many tenants are relayed at once
	 * @param failureBackoff how long a tenant whose outbox could not be reached is left alone
	 * @param shutdownTimeout how long stopping waits for the batches in flight
	 * @param schedulers a new scheduler for the relay's threads at each start
	 */
	public TenantRelay(RelayedTenants tenants, int batchSize, Duration pollInterval, int threads,
			Duration failureBackoff, Duration shutdownTimeout, Supplier<SimpleAsyncTaskScheduler> schedulers) {
		Assert.isTrue(threads > 0, "threads must be positive");
		this.tenants = tenants;
		this.batchSize = batchSize;
		this.pollInterval = pollInterval;
		this.threads = threads;
		this.failureBackoff = failureBackoff;
		this.shutdownTimeout = shutdownTimeout;
		this.schedulers = schedulers;
	}

	/**
	 * Runs one round: every tenant not backing off is drained, a batch per turn.
	 * @return rows published
	 */
	public int round() {
		this.rounds.lock();
		try {
			Queue<Turn> turns = turns();
			ExecutorService pool = this.helpers;
			int helpers = (pool != null) ? Math.max(Math.min(this.threads, turns.size()) - 1, 0) : 0;
			CountDownLatch helped = new CountDownLatch(helpers);
			AtomicInteger published = new AtomicInteger();
			for (int i = 0; i < helpers; i++) {
				pool.execute(() -> {
					try {
						take(turns, published);
					}
					finally {
						helped.countDown();
					}
				});
			}
			take(turns, published);
			awaitUninterruptibly(helped);
			this.lastRound = Instant.now();
			return published.get();
		}
		finally {
			this.rounds.unlock();
		}
	}

	private Queue<Turn> turns() {
		Collection<String> current = this.tenants.tenants();
		this.tenantCount = current.size();
		this.failing.keySet().retainAll(current);
		long now = System.nanoTime();
		Queue<Turn> turns = new ConcurrentLinkedQueue<>();
		for (String tenant : current) {
			Failure failure = this.failing.get(tenant);
			if (failure == null || now - failure.retryAt() >= 0) {
				turns.add(new Turn(tenant));
			}
		}
		return turns;
	}

	private void take(Queue<Turn> turns, AtomicInteger published) {
		Turn turn;
		while (this.running && (turn = turns.poll()) != null) {
			try {
				if (turn.next()) {
					turns.add(turn);
				}
				else {
					published.addAndGet(turn.published());
					recovered(turn.tenant);
				}
			}
			catch (RuntimeException ex) {
				failed(turn.tenant, ex);
			}
		}
	}

	private void failed(String tenant, RuntimeException ex) {
		long retryAt = System.nanoTime() + this.failureBackoff.toNanos();
		Failure before = this.failing.get(tenant);
		String cause = String.valueOf(NestedExceptionUtils.getMostSpecificCause(ex));
		this.failing.put(tenant, new Failure(retryAt, cause, (before != null) ? before.since() : Instant.now(),
				(before != null) ? before.attempts() + 1 : 1));
		if (before == null) {
			// Nothing is lost: the tenant's rows stay pending until a round reaches its outbox again.
			logger.warn("The outbox of the tenant '" + tenant + "' could not be relayed; its events stay pending, "
					+ "and the relay tries it again every " + this.failureBackoff, ex);
		}
		else {
			logger.warn("The outbox of the tenant '" + tenant + "' still cannot be relayed (failing since "
					+ before.since() + "): " + cause);
		}
	}

	private void recovered(String tenant) {
		Failure failure = this.failing.remove(tenant);
		if (failure != null) {
			logger.info("The outbox of the tenant '" + tenant + "' is relayed again after " + failure.attempts()
					+ " failed attempts since " + failure.since());
		}
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The tenants the last round was given.
	 * @return their number
	 */
	public int tenantCount() {
		return this.tenantCount;
	}

	/**
	 * The tenants whose outbox could not be relayed at their last attempt.
	 * @return why, by tenant, in the order of their ids
	 */
	public Map<String, String> failingTenants() {
		return this.failing.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByKey())
			.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> entry.getValue().cause(), (a, b) -> a,
					LinkedHashMap::new));
	}

	/**
	 * When the relay last completed a round, or started.
	 * @return the time, or {@code null} before the relay started
	 */
	public @Nullable Instant lastRound() {
		return this.lastRound;
	}

	@Override
	public void start() {
		this.running = true;
		this.lastRound = Instant.now();
		SimpleAsyncTaskScheduler scheduler = this.schedulers.get();
		this.scheduler = scheduler;
		if (this.threads > 1) {
			this.helpers = Executors.newFixedThreadPool(this.threads - 1, scheduler::createThread);
		}
		scheduler.scheduleWithFixedDelay(this::poll, Instant.now().plus(this.pollInterval), this.pollInterval);
	}

	private void poll() {
		try {
			round();
		}
		catch (RuntimeException ex) {
			logger.warn("The outbox's tenants could not be listed; their events stay pending until a round can", ex);
		}
	}

	@Override
	public void stop() {
		this.running = false;
		try {
			if (this.rounds.tryLock(this.shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
				this.rounds.unlock();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		SimpleAsyncTaskScheduler scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.close();
			this.scheduler = null;
		}
		ExecutorService helpers = this.helpers;
		if (helpers != null) {
			helpers.shutdownNow();
			this.helpers = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * A tenant's turns in one round: the first makes its outbox ready and tidies it, each publishes a
	 * batch.
	 */
	private final class Turn {

		private final String tenant;

		private @Nullable Drain drain;

		Turn(String tenant) {
			this.tenant = tenant;
		}

		boolean next() {
			Drain drain = this.drain;
			if (drain == null) {
				BatchDelivery delivery = TenantRelay.this.tenants.delivery(this.tenant);
				TenantRelay.this.tenants.tidy(this.tenant);
				drain = new Drain(delivery, TenantRelay.this.batchSize);
				this.drain = drain;
			}
			return drain.next();
		}

		int published() {
			Drain drain = this.drain;
			return (drain != null) ? drain.published() : 0;
		}

	}

	private record Failure(long retryAt, String cause, Instant since, int attempts) {

	}

}
