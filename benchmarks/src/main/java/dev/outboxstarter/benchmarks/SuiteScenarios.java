package dev.outboxstarter.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scenarios as the suite runs them: which contenders, with which parameters, for how many rounds,
 * and which table of their medians each prints.
 */
final class SuiteScenarios {

	/**
	 * Transactions before each measurement, after those that ran until the compiler was quiet
	 * ({@code WarmUp}), unless {@code warmup} says otherwise. After 5,000 transactions and no more, the
	 * CPU every contender spent per transaction was still mostly compilation, and the floor ran at half
	 * speed; after 40,000 and no more, code run once per batch was still being compiled.
	 */
	private static final int DEFAULT_WARMUP = 40_000;

	/** The write cost's contenders unless {@code write-contenders} names others. */
	private static final List<Contenders> WRITERS = List.of(Contenders.STARTER, Contenders.STARTER_RELAY_ONLY,
			Contenders.STARTER_CAPTURE_ONLY, Contenders.MODULITH, Contenders.NAMASTACK_DEFAULTS, Contenders.NAMASTACK_TUNED, Contenders.DATABASE_ONLY,
			Contenders.NAIVE_DUAL_WRITE, Contenders.RAW_REFERENCE);

	/**
	 * The backlog drain's contenders unless {@code drain-contenders} names others. Not namastack at its
	 * defaults: 10 keys every 2 s take hours over a 100,000-event backlog.
	 */
	private static final List<Contenders> DRAINERS = List.of(Contenders.STARTER, Contenders.MODULITH,
			Contenders.NAMASTACK_TUNED, Contenders.RAW_REFERENCE);

	/**
	 * Delivery latency's contenders unless {@code latency-contenders} names others. Namastack at its
	 * defaults (about 5 events a second) runs into {@code latency-limit-seconds} and is reported by how
	 * many events arrived.
	 */
	private static final List<Contenders> LATENCY = List.of(Contenders.STARTER, Contenders.STARTER_RELAY_ONLY,
			Contenders.MODULITH, Contenders.NAMASTACK_DEFAULTS, Contenders.NAMASTACK_TUNED, Contenders.NAIVE_DUAL_WRITE,
			Contenders.RAW_REFERENCE);

	/**
	 * The sustained rate's contenders unless {@code sustained-contenders} names others. Namastack at its
	 * defaults fails the first step.
	 */
	private static final List<Contenders> SUSTAINED = List.of(Contenders.STARTER, Contenders.MODULITH,
			Contenders.NAMASTACK_TUNED, Contenders.NAMASTACK_DEFAULTS);

	/** The tenants scenario's contenders unless {@code tenants-contenders} names others. */
	private static final List<Contenders> TENANTS = List.of(Contenders.STARTER, Contenders.STARTER_ONE_TENANT,
			Contenders.STARTER_10_TENANTS, Contenders.STARTER_100_TENANTS);

	private final SuiteOptions options;

	private final ContenderLauncher launcher;

	private final Rounds rounds;

	private final ResultTables tables;

	SuiteScenarios(SuiteOptions options, ContenderLauncher launcher, Rounds rounds, ResultTables tables) {
		this.options = options;
		this.launcher = launcher;
		this.rounds = rounds;
		this.tables = tables;
	}

	/**
	 * Publishes through the broker once before anything is measured, and discards the result: a broker
	 * JVM just started compiles its code while the first contender runs, which would cost that contender
	 * alone part of its first round.
	 */
	void warmBroker() {
		System.out.println("warming the broker up (not measured)");
		this.launcher.run(Entrant.of(Contenders.NAIVE_DUAL_WRITE), "write",
				List.of("transactions=20000", "concurrency=8", "warmup=0"), this.options.heap());
	}

	/**
	 * The write cost at each of {@code write-concurrency}'s thread counts.
	 * @param rounds the rounds
	 */
	void writeCost(int rounds) {
		List<Entrant> writers = this.options.contenders("write-contenders", WRITERS);
		for (String concurrency : this.options.value("write-concurrency", "1,8").split(",")) {
			writeCost(writers, rounds, Integer.parseInt(concurrency.trim()));
		}
	}

	/**
	 * The write cost at one thread count: its table, its ratios and the database work and allocation.
	 * @param writers the contenders
	 * @param rounds the rounds
	 * @param concurrency the writer threads
	 * @return each contender's medians
	 */
	Map<Entrant, Map<String, Double>> writeCost(List<Entrant> writers, int rounds, int concurrency) {
		String name = "write cost, concurrency " + concurrency;
		Map<Entrant, Map<String, Double>> medians = rounds(name, writers, rounds, "write",
				List.of("transactions=" + this.options.number("transactions", 20_000), "concurrency=" + concurrency,
						"warmup=" + warmup()));
		this.tables.table(name, medians, List.of("transactionsPerSecond", "p50Millis", "p99Millis",
				"jvmCpuMicrosPerTransaction", "databaseCpuMicrosPerTransaction"), "transactionsPerSecond");
		this.tables.writeRatios(name, medians);
		this.tables.table(name + ", database and allocation per transaction", medians, List.of("walBytesPerTransaction",
				"databaseTransactionsPerTransaction", "statementsPerTransaction", "rowsInsertedPerTransaction", "rowsUpdatedPerTransaction",
				"rowsDeletedPerTransaction", "jvmAllocatedBytesPerTransaction", "writerAllocatedBytesPerTransaction"),
				"transactionsPerSecond");
		return medians;
	}

	/**
	 * The drain of a backlog written while the broker was unreachable.
	 * @param rounds the rounds
	 */
	void drain(int rounds) {
		int events = this.options.number("drain-events", 100_000);
		String name = "backlog drain, " + events + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name,
				this.options.contenders("drain-contenders", DRAINERS), rounds, "drain", List.of("events=" + events));
		this.tables.table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes", "lost",
				"outageCommitP50Millis", "outageCommitP99Millis"), "eventsPerSecond");
	}

	/**
	 * The drain after an outage of the running broker, for {@code outage-contenders}.
	 * @param rounds the rounds
	 */
	void outage(int rounds) {
		outage(this.options.contenders("outage-contenders", DRAINERS), rounds);
	}

	/**
	 * The drain after an outage of the running broker.
	 * @param contenders the contenders
	 * @param rounds the rounds
	 * @return each contender's medians
	 */
	Map<Entrant, Map<String, Double>> outage(List<Entrant> contenders, int rounds) {
		int events = this.options.number("outage-events", 100_000);
		String name = "backlog drain after an outage of the running broker, " + events + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name, contenders, rounds, "outage",
				List.of("events=" + events, "warmup=" + warmup()));
		this.tables.table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes", "lost",
				"outageCommitP50Millis", "outageCommitP99Millis"), "eventsPerSecond");
		return medians;
	}

	/**
	 * The starter with its events spread over 1, 10 and 100 tenants, against the starter without
	 * tenants: the drain of a backlog (every tenant's at once) and the burst's latency and whole-cycle
	 * cost, with 8 writer threads spread over the tenants.
	 * @param rounds the rounds
	 */
	void tenants(int rounds) {
		List<Entrant> contenders = this.options.contenders("tenants-contenders", TENANTS);
		int events = this.options.number("drain-events", 100_000);
		String name = "backlog drain over tenants, " + events + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name, contenders, rounds, "drain", List.of("events=" + events));
		this.tables.table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes", "lost"),
				"eventsPerSecond");
		latencyBurst(contenders, rounds);
	}

	/**
	 * The events written while the broker was down that never arrive, in one round: the starter's
	 * against the naive send's.
	 */
	void lost() {
		int events = this.options.number("lost-events", 500);
		String name = "events written while the broker was down, " + events + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name,
				List.of(Entrant.of(Contenders.STARTER), Entrant.of(Contenders.NAIVE_DUAL_WRITE)), 1, "drain",
				List.of("events=" + events, "limitSeconds=60"));
		this.tables.table(name, medians, List.of("received", "lost"), "received");
	}

	/**
	 * Delivery latency at a steady rate, then in a burst.
	 * @param rounds the rounds
	 */
	void latency(int rounds) {
		List<Entrant> contenders = this.options.contenders("latency-contenders", LATENCY);
		int rate = this.options.number("latency-rate", 500);
		int seconds = this.options.number("latency-seconds", 30);
		String steady = "delivery latency, " + rate + " events/s for " + seconds + " s";
		List<String> steadyParameters = new ArrayList<>(latencyParameters());
		steadyParameters.add("rate=" + rate);
		steadyParameters.add("seconds=" + seconds);
		if (seconds > 0) {
			this.tables.table(steady, rounds(steady, contenders, rounds, "latency-steady", steadyParameters),
					List.of("achievedRate", "p50Millis", "p99Millis", "maxMillis", "received", "lost"), "p99Millis");
		}
		latencyBurst(contenders, rounds);
	}

	/**
	 * Delivery latency of a burst from 8 threads.
	 * @param contenders the contenders
	 * @param rounds the rounds
	 * @return each contender's medians
	 */
	Map<Entrant, Map<String, Double>> latencyBurst(List<Entrant> contenders, int rounds) {
		int transactions = this.options.number("latency-burst-transactions", 20_000);
		String burst = "delivery latency, 8 threads writing " + transactions + " events as fast as they can";
		List<String> burstParameters = new ArrayList<>(latencyParameters());
		burstParameters.add("transactions=" + transactions);
		Map<Entrant, Map<String, Double>> medians = rounds(burst, contenders, rounds, "latency-burst", burstParameters);
		this.tables.table(burst, medians, List.of("transactionsPerSecond", "p50Millis", "p99Millis", "maxMillis",
				"received", "lost"), "p99Millis");
		this.tables.table("whole cycle of the same burst: CPU per delivered event from the first write to the last "
				+ "arrival (the contender's JVM less its test consumer, the database server, the broker)", medians,
				List.of("cycleCpuMicrosPerEvent", "cycleJvmCpuMicrosPerEvent", "cycleDatabaseCpuMicrosPerEvent",
						"cycleBrokerCpuMicrosPerEvent", "cycleJvmAllocatedBytesPerEvent", "cycleSecondsToLastArrival"),
				"cycleCpuMicrosPerEvent");
		return medians;
	}

	private List<String> latencyParameters() {
		return List.of("warmup=" + warmup(), "limitSeconds=" + this.options.number("latency-limit-seconds", 120));
	}

	/**
	 * A backlog drained by 1, 2 and 3 instances of the starter.
	 * @param rounds the rounds
	 */
	void scaleOut(int rounds) {
		int events = this.options.number("scaleout-events", 100_000);
		String name = "scale-out, backlog drain of " + events + " events by several starter instances"
				+ " (application contexts in one JVM)";
		Map<Integer, Map<String, Double>> medians = this.rounds.run(name, List.of(1, 2, 3), rounds,
				SuiteScenarios::instances, (instances) -> this.launcher.run(Entrant.of(Contenders.STARTER), "scaleout",
						List.of("events=" + events, "instances=" + instances), this.options.heap()));
		this.tables.table(name, "starter", medians, SuiteScenarios::instances, 1, "1 instance",
				List.of("drainSeconds", "eventsPerSecond", "lost"), "eventsPerSecond");
	}

	private static String instances(int count) {
		return count + ((count == 1) ? " instance" : " instances");
	}

	/**
	 * A large backlog drained by the starter in a small heap.
	 * @param rounds the rounds
	 */
	void memory(int rounds) {
		int events = this.options.number("memory-events", 1_000_000);
		String name = "large backlog, " + events + " pending events bulk-inserted with SQL, drained under -Xmx256m";
		List<String> parameters = List.of("events=" + events,
				"limitSeconds=" + this.options.number("memory-limit-seconds", 1_800));
		Map<Entrant, Map<String, Double>> medians = this.rounds.run(name, List.of(Entrant.of(Contenders.STARTER)),
				rounds, Entrant::label, (contender) -> this.launcher.run(contender, "memory", parameters, "256m"));
		this.tables.table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes",
				"peakHeapAfterCollectionsMegabytes", "lost", "outOfMemoryErrors"), "eventsPerSecond");
	}

	/**
	 * The starter's write cost and drain after an outage with {@code retained-rows} published rows in its
	 * table and with an empty one.
	 * @param rounds the rounds
	 * @return the medians by how many rows were retained
	 */
	Map<Integer, Map<String, Double>> retained(int rounds) {
		int retained = this.options.number("retained-rows", 10_000_000);
		int events = this.options.number("outage-events", 100_000);
		String name = "the starter with " + retained + " published rows retained and with an empty table: write cost"
				+ " (8 threads), then the drain of " + events + " events after an outage of the running broker";
		List<String> parameters = List.of("transactions=" + this.options.number("transactions", 20_000),
				"warmup=" + warmup(), "events=" + events);
		Map<Integer, Map<String, Double>> medians = this.rounds.run(name, List.of(0, retained), rounds,
				SuiteScenarios::retainedRows, (rows) -> {
					List<String> withRows = new ArrayList<>(parameters);
					withRows.add("retained=" + rows);
					return this.launcher.run(Entrant.of(Contenders.STARTER), "retained", withRows, this.options.heap());
				});
		this.tables.table(name, "table", medians, SuiteScenarios::retainedRows, 0, "empty", List.of("insertSeconds",
				"transactionsPerSecond", "p99Millis", "databaseCpuMicrosPerTransaction", "drainSeconds", "eventsPerSecond",
				"lost"), "transactionsPerSecond");
		this.tables.text("drain events/s, " + retainedRows(retained) + " / empty: "
				+ ResultTables.ratio(medians.get(retained).get("eventsPerSecond"), medians.get(0).get("eventsPerSecond"))
				+ "\n\n");
		return medians;
	}

	/** A row of the retained rows' table by how many rows the starter's table held. */
	static String retainedRows(int rows) {
		return (rows == 0) ? "empty" : String.format(Locale.ROOT, "%,d published rows", rows);
	}

	/**
	 * The highest rate each contender holds, in steps of 500 events a second.
	 * @param rounds the rounds
	 */
	void sustained(int rounds) {
		int maxRate = this.options.number("sustained-max-rate", 6_000);
		int stepSeconds = this.options.number("sustained-step-seconds", 60);
		String name = "sustained rate, steps of 500 events/s up to " + maxRate + ", " + stepSeconds + " s each";
		Map<Entrant, Map<String, Double>> medians = rounds(name,
				this.options.contenders("sustained-contenders", SUSTAINED), rounds, "sustained",
				List.of("maxRate=" + maxRate, "stepSeconds=" + stepSeconds, "warmup=" + warmup()));
		this.tables.table(name, medians, List.of("highestHeldRate", "failedAtRate", "writerLimitedAtRate"),
				"highestHeldRate");
	}

	/**
	 * The write cost at 8 threads as a harness that warms up by count measures it: the first
	 * {@code harness-warmup} (20,000) transactions are the whole warm-up, with no rounds until the
	 * compiler is quiet, and the contenders run with {@code -Xms1g -Xmx2g}.
	 * @param writers the contenders
	 * @param rounds the rounds
	 * @return each contender's medians
	 */
	Map<Entrant, Map<String, Double>> harnessWriteCost(List<Entrant> writers, int rounds) {
		int warmup = this.options.number("harness-warmup", 20_000);
		String name = "write cost, concurrency 8, warmed up by " + warmup + " transactions alone, -Xms1g -Xmx2g";
		List<String> parameters = List.of("transactions=" + this.options.number("transactions", 20_000),
				"concurrency=8", "warmup=" + warmup, "warmupUntilQuiet=false");
		Map<Entrant, Map<String, Double>> medians = this.rounds.run(name, writers, rounds, Entrant::label,
				(contender) -> this.launcher.run(contender, "write", parameters, "2g", "1g"));
		this.tables.table(name, medians, List.of("transactionsPerSecond", "p50Millis", "p99Millis",
				"jvmCpuMicrosPerTransaction", "databaseCpuMicrosPerTransaction", "warmupTransactions"),
				"transactionsPerSecond");
		return medians;
	}

	private int warmup() {
		return this.options.number("warmup", DEFAULT_WARMUP);
	}

	private Map<Entrant, Map<String, Double>> rounds(String name, List<Entrant> contenders, int rounds,
			String scenario, List<String> parameters) {
		return this.rounds.run(name, contenders, rounds, Entrant::label,
				(contender) -> this.launcher.run(contender, scenario, parameters, this.options.heap()));
	}

}
