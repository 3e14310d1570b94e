package dev.outboxstarter.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.outboxstarter.faults.CounterService.DeliberateRollback;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One instance of the fault suite, a JVM process of its own: starts {@link FaultApplication} with the
 * given Spring properties, commits its share of counter increments, then keeps running (fast path and
 * relay) until its standard input ends. It reports on standard output, one line each, prefixed with
 * {@value #PREFIX}: {@code READY <remaining>}, {@code COMMIT <epoch millis> <latency micros>},
 * {@code ROLLBACK <txId>}, {@code POISON <txId>}, {@code ERROR <epoch millis> <reason>},
 * {@code DONE <committed>}.
 * <p>
 * Its share counts what it committed before a restart: the committed increments are the outbox rows
 * whose transaction id starts with the instance name.
 * <p>
 * With tenants ({@code fault.tenants}), each transaction runs as one of them or as none, at random,
 * and increments that tenant's counter of its key; the poison event is raised as
 * {@code fault.poison-tenant}.
 */
public final class FaultInstance {

	static final String PREFIX = "FAULT ";

	private final CounterService service;

	private final String instance;

	private final int keys;

	private final int rate;

	private final int threads;

	private final int poisonKey;

	private final AtomicInteger permits;

	private final int poisonAt;

	private final AtomicInteger committed = new AtomicInteger();

	private final AtomicLong transactions = new AtomicLong();

	private final AtomicBoolean poisoned = new AtomicBoolean();

	private final String txPrefix;

	/** The tenants a transaction may run as, besides none. */
	private final List<String> tenants;

	private final @Nullable String poisonTenant;

	private FaultInstance(ConfigurableApplicationContext context) {
		Environment environment = context.getEnvironment();
		this.service = context.getBean(CounterService.class);
		this.instance = environment.getRequiredProperty("fault.instance");
		this.keys = environment.getRequiredProperty("fault.keys", Integer.class);
		this.rate = environment.getProperty("fault.rate", Integer.class, 0);
		this.threads = environment.getProperty("fault.threads", Integer.class, 2);
		String table = environment.getRequiredProperty("outbox.table-name");
		Map<String, String> schemas = FaultTenants.parse(environment.getProperty("fault.tenants"));
		this.tenants = new ArrayList<>(schemas.keySet());
		List<String> tables = new ArrayList<>(List.of(table));
		schemas.values().forEach((schema) -> tables.add(schema + "." + table));
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		int share = environment.getRequiredProperty("fault.share", Integer.class);
		int done = count(jdbc, tables, "event_type = ? AND payload LIKE ?", Counted.TYPE,
				"%\"txId\":\"" + this.instance + "-%");
		this.permits = new AtomicInteger(Math.max(0, share - done));
		int requestedPoisonKey = environment.getProperty("fault.poison-key", Integer.class, -1);
		boolean poisonStored = requestedPoisonKey >= 0 && count(jdbc, tables, "event_type = ?", Poison.TYPE) > 0;
		this.poisonKey = poisonStored ? -1 : requestedPoisonKey;
		this.poisonTenant = environment.getProperty("fault.poison-tenant");
		this.poisonAt = this.permits.get() / 10;
		this.txPrefix = this.instance + "-" + ProcessHandle.current().pid() + "-";
	}

	/**
	 * Counts rows in the outbox tables, the primary one and each tenant's (which the outbox has made by
	 * the time it has started).
	 */
	private static int count(JdbcTemplate jdbc, List<String> tables, String where, Object... arguments) {
		int count = 0;
		for (String table : tables) {
			count += jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE " + where, Integer.class, arguments);
		}
		return count;
	}

	public static void main(String[] args) throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(FaultApplication.class)
			.web(WebApplicationType.NONE)
			.run(args);
		FaultInstance instance = new FaultInstance(context);
		report("READY " + instance.permits.get());
		instance.produce();
		report("DONE " + instance.committed.get());
		// Keeps publishing (fast path, relay) until the orchestrator closes our standard input.
		try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
			String line;
			do {
				line = in.readLine();
			}
			while (line != null && !line.equals("exit"));
		}
		catch (IOException ex) {
			// The orchestrator is gone: exit too.
		}
		context.close();
		System.exit(0);
	}

	private void produce() throws InterruptedException {
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < this.threads; i++) {
			Thread worker = new Thread(this::produceOnThisThread, "fault-producer-" + i);
			worker.start();
			workers.add(worker);
		}
		for (Thread worker : workers) {
			worker.join();
		}
	}

	private void produceOnThisThread() {
		// Pacing of the load generator (not synchronisation): each thread commits at most rate/threads
		// transactions a second, so that the run lasts long enough for its faults.
		long interval = (this.rate > 0) ? TimeUnit.SECONDS.toNanos(1) * this.threads / this.rate : 0;
		long next = System.nanoTime();
		while (true) {
			if (interval > 0) {
				next += interval;
				long wait = next - System.nanoTime();
				if (wait > 0) {
					LockSupport.parkNanos(wait);
				}
			}
			long number = this.transactions.incrementAndGet();
			boolean rollBack = number % 10 == 0;
			if (!rollBack) {
				int permit = this.permits.getAndDecrement();
				if (permit <= 0) {
					return;
				}
			}
			String txId = this.txPrefix + number;
			ThreadLocalRandom random = ThreadLocalRandom.current();
			// With two tenants, a third of the transactions run as no tenant, a third as each tenant.
			int scope = random.nextInt(this.tenants.size() + 1);
			String tenant = (scope > 0) ? this.tenants.get(scope - 1) : null;
			int key = random.nextInt(this.keys);
			boolean poison = false;
			if (!rollBack && this.poisonKey >= 0 && this.committed.get() >= this.poisonAt
					&& this.poisoned.compareAndSet(false, true)) {
				poison = true;
				key = this.poisonKey;
				tenant = this.poisonTenant;
			}
			long start = System.nanoTime();
			try {
				int counter = key;
				boolean poisonous = poison;
				FaultTenants.as(tenant, () -> this.service.increment(counter, txId, rollBack, poisonous));
				long latency = (System.nanoTime() - start) / 1000;
				this.committed.incrementAndGet();
				report("COMMIT " + System.currentTimeMillis() + " " + latency);
				if (poison) {
					report("POISON " + txId);
				}
			}
			catch (DeliberateRollback ex) {
				report("ROLLBACK " + txId);
			}
			catch (RuntimeException ex) {
				// E.g. the database connection was terminated: the outcome of a commit may be unknown, but
				// the outbox table tells what committed. Try again with a new transaction.
				report("ERROR " + System.currentTimeMillis() + " " + ex.getClass().getName() + ": "
						+ String.valueOf(ex.getMessage()).replace('\n', ' '));
				if (!rollBack) {
					this.permits.incrementAndGet();
				}
				if (poison) {
					this.poisoned.set(false);
				}
			}
		}
	}

	private static void report(String line) {
		System.out.println(PREFIX + line);
	}

}
