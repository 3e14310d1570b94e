package dev.outboxstarter.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import dev.outboxstarter.testsupport.FaultClassPath;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

/**
 * Runs every scenario for every contender on the same database and Kafka broker, alternating the
 * contenders round by round (each run in a fresh JVM, with its own warm-up), takes the median of the
 * rounds and prints a Markdown table with ratios to the starter; writes it and the raw results as
 * JSON to {@code target/benchmarks/}. Arguments ({@code --name=value}; contender lists are
 * comma-separated {@link Contenders} names, {@code NAME@baseline} for contender {@code NAME} run from
 * {@code baseline-classpath}):
 * <ul>
 * <li>{@code rounds} (3; {@code <scenario>-rounds}, e.g. {@code drain-rounds}, for one scenario), {@code heap} (1g, the contender JVMs' maximum heap), {@code only} (one
 * scenario: {@code write}, {@code drain}, {@code outage}, {@code lost}, {@code latency}, {@code scaleout}, {@code memory},
 * {@code retained} or {@code sustained}; or {@code targets}, the write path's targets: the write cost at 8
 * threads, the burst's latency, the drain after an outage and the retained rows, and a table of the
 * targets), {@code database} ({@code postgresql}, the default, or {@code mariadb}: the local database;
 * contenders not set up for MariaDB are left out of the default lists, and {@code memory} runs on
 * PostgreSQL only), {@code profile} (a directory for a flight recording of every contender run),
 * {@code async-profiler} (with {@code profile}: the path of async-profiler's {@code libasyncProfiler.so},
 * to record CPU samples of every thread as collapsed stacks instead), {@code jdbc-url} (the
 * database, the local one {@code database} names unless given; every contender drops and creates its
 * own schema in it, on MariaDB a database), {@code baseline-classpath} (a file holding the class path,
 * one line, of an earlier build of this module and the starter, for comparing a change with the build
 * before it in one run: a contender listed as {@code NAME@baseline}, e.g. {@code STARTER@baseline}, runs
 * from it, and is a contender of its own in every table, labelled "…, baseline build");</li>
 * <li>write cost: {@code transactions} (20000), {@code warmup} (40000, after rounds of 10,000 until the
 * compiler is quiet, at most 4 times {@code warmup}; also before the latency and sustained rate
 * measurements), {@code write-concurrency} (1,8), {@code write-contenders};</li>
 * <li>backlog drain: {@code drain-events} (100000), {@code drain-contenders};</li>
 * <li>backlog drain after an outage of the running broker ({@code outage}): {@code outage-events}
 * (100000), after {@code warmup} transactions published through it, {@code outage-contenders} (those of
 * the drain);</li>
 * <li>events lost while the broker is down: {@code lost-events} (500);</li>
 * <li>delivery latency: {@code latency-rate} (500 events/s) for {@code latency-seconds} (30), then
 * {@code latency-burst-transactions} (20000) from 8 threads as fast as they go; {@code latency-limit-seconds}
 * (120, how long to wait for the events once written), {@code latency-contenders};</li>
 * <li>scale-out: {@code scaleout-events} (100000) drained by 1, 2 and 3 instances of the starter;</li>
 * <li>large backlog: {@code memory-events} (1000000) drained by the starter under {@code -Xmx256m}
 * whatever {@code heap} says, {@code memory-limit-seconds} (1800);</li>
 * <li>retained rows: {@code retained-rows} (10000000) published rows inserted into the starter's table
 * before its write cost ({@code transactions}, {@code warmup}) and its drain after an outage
 * ({@code outage-events}), against the same with an empty table;</li>
 * <li>sustained rate: steps of 500 events/s up to {@code sustained-max-rate} (6000), each held for
 * {@code sustained-step-seconds} (60), {@code sustained-contenders}.</li>
 * </ul>
 */
public final class BenchmarkSuite {

	private static final JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

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
	 * The broker runs as it would in production, with the optimizing compiler: the test suites' quick
	 * start-up options would make it spend the CPU the contenders share on interpreted and lightly
	 * compiled code, which weighs on every contender that publishes and not on the database-only floor.
	 */
	private static final List<String> BROKER_JVM_OPTIONS = List.of("-Xmx1g", "-XX:+UseG1GC");

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

	/** Separates a metric's name from a round's number in the medians' keys, {@code name#0}. */
	private static final String ROUND = "#";

	/** The write path's contenders in {@code --only=targets} unless {@code write-contenders} names others. */
	private static final List<Contenders> TARGET_WRITERS = List.of(Contenders.STARTER, Contenders.STARTER_RELAY_ONLY,
			Contenders.STARTER_CAPTURE_ONLY, Contenders.DATABASE_ONLY, Contenders.NAIVE_DUAL_WRITE, Contenders.MODULITH);

	/**
	 * Bytes the JVM allocated per captured event the first time it was measured (the starter's per
	 * transaction less the floor's, PostgreSQL, 8 threads): the write path's target is half of it.
	 */
	private static final double FIRST_MEASURED_ALLOCATION_PER_EVENT = 9_623;

	/** What {@code -XX:+ExitOnOutOfMemoryError} prints as a contender JVM ends. */
	private static final String OUT_OF_MEMORY = "Terminating due to java.lang.OutOfMemoryError";

	private final Map<String, String> options;

	/** The class path of {@code baseline-classpath}'s build, or {@code null} without one. */
	private final String baselineClassPath;

	private final KafkaBrokerProcess broker;

	/** Where every contender makes its schema. */
	private final String jdbcUrl;

	private final BenchmarkDatabase database;

	private final Map<String, Object> results = new LinkedHashMap<>();

	private final StringBuilder markdown = new StringBuilder();

	private BenchmarkSuite(Map<String, String> options, String baselineClassPath, KafkaBrokerProcess broker) {
		this.options = options;
		this.baselineClassPath = baselineClassPath;
		this.broker = broker;
		this.jdbcUrl = jdbcUrl(options);
		this.database = BenchmarkDatabase.of(this.jdbcUrl);
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			options.put(pair[0], pair[1]);
		}
		Path output = Path.of("target", "benchmarks");
		Files.createDirectories(output);
		if (options.containsKey("profile")) {
			Files.createDirectories(Path.of(options.get("profile")));
		}
		if (options.containsKey("async-profiler")) {
			Assert.isTrue(options.containsKey("profile"), "--async-profiler needs --profile=<dir> for its output");
			Assert.isTrue(Files.isRegularFile(Path.of(options.get("async-profiler"))), () -> "--async-profiler="
					+ options.get("async-profiler") + " is not a file: give the path of libasyncProfiler.so");
		}
		String baselineClassPath = options.containsKey("baseline-classpath")
				? baselineClassPath(Path.of(options.get("baseline-classpath"))) : null;
		BenchmarkDatabase database = BenchmarkDatabase.of(jdbcUrl(options));
		Assert.isTrue(database == BenchmarkDatabase.POSTGRESQL || !"memory".equals(options.get("only")),
				"--only=memory bulk-inserts its backlog with PostgreSQL's SQL: run it without --database=mariadb");
		// Every contender list read now: a mistake in one stops the run before the first scenario, not hours in.
		options.forEach((name, names) -> {
			if (name.endsWith("-contenders")) {
				entrants(name, names, baselineClassPath, database);
			}
		});
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(output.resolve("kafka.log"), BROKER_JVM_OPTIONS)) {
			BenchmarkSuite suite = new BenchmarkSuite(options, baselineClassPath, broker);
			suite.run();
			Files.writeString(output.resolve("results.md"), suite.markdown);
			Files.writeString(output.resolve("results.json"), json.writeValueAsString(suite.results));
			System.out.println();
			System.out.println(suite.markdown);
			System.out.println("Written to " + output.toAbsolutePath());
		}
	}

	private static String baselineClassPath(Path file) throws IOException {
		Assert.isTrue(Files.isRegularFile(file), () -> "--baseline-classpath=" + file
				+ " is not a file: give a file holding the baseline build's class path on one line");
		String classPath = Files.readString(file).trim();
		Assert.hasText(classPath, () -> "--baseline-classpath=" + file + " is empty");
		for (String entry : classPath.split(File.pathSeparator)) {
			Assert.isTrue(Files.exists(Path.of(entry)),
					() -> "--baseline-classpath=" + file + " names " + entry + ", which does not exist");
		}
		return classPath;
	}

	/**
	 * The database every contender uses: {@code jdbc-url}, or the local one {@code database} names
	 * ({@code postgresql}, the default, or {@code mariadb}).
	 */
	private static String jdbcUrl(Map<String, String> options) {
		BenchmarkDatabase database = BenchmarkDatabase
			.valueOf(options.getOrDefault("database", "postgresql").toUpperCase(Locale.ROOT));
		String jdbcUrl = options.getOrDefault("jdbc-url", database.defaultJdbcUrl());
		Assert.isTrue(!options.containsKey("database") || BenchmarkDatabase.of(jdbcUrl) == database,
				() -> "--jdbc-url=" + jdbcUrl + " is not a " + database + " URL, which --database asks for");
		return jdbcUrl;
	}

	private List<Entrant> contenders(String name, List<Contenders> defaultValue) {
		String names = this.options.get(name);
		if (names == null) {
			// The defaults that are not set up for this database are left out, not failed.
			return defaultValue.stream().filter((contender) -> contender.runsOn(this.database)).map(Entrant::of).toList();
		}
		return entrants(name, names, this.baselineClassPath, this.database);
	}

	private static List<Entrant> entrants(String name, String names, String baselineClassPath,
			BenchmarkDatabase database) {
		List<Entrant> entrants = Arrays.stream(names.split(",")).map(String::trim).map(Entrant::parse).toList();
		Assert.isTrue(baselineClassPath != null || entrants.stream().noneMatch(Entrant::baseline),
				() -> "--" + name + "=" + names + ": a contender NAME" + Entrant.BASELINE
						+ " needs --baseline-classpath=<file holding the baseline build's class path>");
		entrants.forEach((entrant) -> Assert.isTrue(entrant.contender().runsOn(database),
				() -> "--" + name + "=" + names + ": " + entrant + " is not set up for " + database
						+ "; leave it out or run on PostgreSQL"));
		return entrants;
	}

	private int option(String name, int defaultValue) {
		return Integer.parseInt(this.options.getOrDefault(name, String.valueOf(defaultValue)));
	}

	private void run() {
		int rounds = option("rounds", 3);
		this.markdown.append("Run ").append(Instant.now()).append(" on ")
			.append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
			.append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
			.append(", ").append(this.database).append("; ").append(rounds).append(" rounds, medians.\n\n");
		warmBroker();
		String only = this.options.get("only");
		if ("targets".equals(only)) {
			targets(rounds);
			return;
		}
		if (only == null || only.equals("write")) {
			writeCost(option("write-rounds", rounds));
		}
		if (only == null || only.equals("drain")) {
			drain(option("drain-rounds", rounds));
		}
		if (only == null || only.equals("outage")) {
			outage(contenders("outage-contenders", DRAINERS), option("outage-rounds", rounds));
		}
		if (only == null || only.equals("lost")) {
			lost();
		}
		if (only == null || only.equals("latency")) {
			latency(option("latency-rounds", rounds));
		}
		if (only == null || only.equals("scaleout")) {
			scaleOut(option("scaleout-rounds", rounds));
		}
		if ((only == null || only.equals("memory")) && this.database == BenchmarkDatabase.POSTGRESQL) {
			memory(option("memory-rounds", rounds));
		}
		if (only == null || only.equals("retained")) {
			retained(option("retained-rounds", rounds));
		}
		if (only == null || only.equals("sustained")) {
			sustained(option("sustained-rounds", rounds));
		}
	}

	/**
	 * Publishes through the broker once before anything is measured, and discards the result: a broker
	 * JVM just started compiles its code while the first contender runs, which would cost that contender
	 * alone part of its first round.
	 */
	private void warmBroker() {
		System.out.println("warming the broker up (not measured)");
		runChild(Entrant.of(Contenders.NAIVE_DUAL_WRITE), "write",
				List.of("transactions=20000", "concurrency=8", "warmup=0"), heap());
	}

	private void writeCost(int rounds) {
		List<Entrant> writers = contenders("write-contenders", WRITERS);
		for (String concurrency : this.options.getOrDefault("write-concurrency", "1,8").split(",")) {
			writeCost(writers, rounds, Integer.parseInt(concurrency.trim()));
		}
	}

	private Map<Entrant, Map<String, Double>> writeCost(List<Entrant> writers, int rounds, int concurrency) {
		String name = "write cost, concurrency " + concurrency;
		Map<Entrant, Map<String, Double>> medians = rounds(name, writers, rounds, "write",
				List.of("transactions=" + option("transactions", 20_000), "concurrency=" + concurrency,
						"warmup=" + option("warmup", DEFAULT_WARMUP)));
		table(name, medians, List.of("transactionsPerSecond", "p50Millis", "p99Millis", "jvmCpuMicrosPerTransaction",
				"databaseCpuMicrosPerTransaction"), "transactionsPerSecond");
		writeRatios(name, medians);
		table(name + ", database and allocation per transaction", medians, List.of("walBytesPerTransaction",
				"databaseTransactionsPerTransaction", "statementsPerTransaction", "rowsInsertedPerTransaction", "rowsUpdatedPerTransaction",
				"rowsDeletedPerTransaction", "jvmAllocatedBytesPerTransaction", "writerAllocatedBytesPerTransaction"),
				"transactionsPerSecond");
		return medians;
	}

	/**
	 * The write cost's ratios: each contender's median rate to the database-only floor's, with the
	 * spread of its rounds, and the starter's to the references the write path is measured against and
	 * to the baseline build's starter.
	 */
	private void writeRatios(String name, Map<Entrant, Map<String, Double>> medians) {
		Double floor = rate(medians, Entrant.of(Contenders.DATABASE_ONLY));
		this.markdown.append("### ").append(name).append(", ratios\n\n")
			.append("| contender | tx/s (median) | rounds' range | / floor |\n|---|---:|---|---:|\n");
		medians.forEach((contender, values) -> this.markdown.append("| ").append(contender.label()).append(" | ")
			.append(format(values.get("transactionsPerSecond"))).append(" | ")
			.append(format(values.get("transactionsPerSecondMin"))).append("–")
			.append(format(values.get("transactionsPerSecondMax"))).append(" | ")
			.append(ratio(values.get("transactionsPerSecond"), floor)).append(" |\n"));
		Double starter = rate(medians, Entrant.of(Contenders.STARTER));
		for (Entrant reference : List.of(Entrant.of(Contenders.NAIVE_DUAL_WRITE), Entrant.of(Contenders.MODULITH),
				Entrant.of(Contenders.STARTER_RELAY_ONLY), new Entrant(Contenders.STARTER, true))) {
			if (medians.containsKey(reference)) {
				this.markdown.append("\nstarter / ").append(reference.label()).append(": ")
					.append(ratio(starter, rate(medians, reference)));
			}
		}
		this.markdown.append("\n\n");
	}

	private static Double rate(Map<Entrant, Map<String, Double>> medians, Entrant contender) {
		return medians.getOrDefault(contender, Map.of()).get("transactionsPerSecond");
	}

	private static String ratio(Double value, Double reference) {
		return (value != null && reference != null && reference != 0) ? format(value / reference) : "–";
	}

	private void drain(int rounds) {
		String name = "backlog drain, " + option("drain-events", 100_000) + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name, contenders("drain-contenders", DRAINERS), rounds,
				"drain", List.of("events=" + option("drain-events", 100_000)));
		table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes", "lost",
				"outageCommitP50Millis", "outageCommitP99Millis"), "eventsPerSecond");
	}

	private Map<Entrant, Map<String, Double>> outage(List<Entrant> contenders, int rounds) {
		int events = option("outage-events", 100_000);
		String name = "backlog drain after an outage of the running broker, " + events + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name, contenders, rounds, "outage",
				List.of("events=" + events, "warmup=" + option("warmup", DEFAULT_WARMUP)));
		table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes", "lost",
				"outageCommitP50Millis", "outageCommitP99Millis"), "eventsPerSecond");
		return medians;
	}

	private void lost() {
		String name = "events written while the broker was down, " + option("lost-events", 500) + " events";
		Map<Entrant, Map<String, Double>> medians = rounds(name,
				List.of(Entrant.of(Contenders.STARTER), Entrant.of(Contenders.NAIVE_DUAL_WRITE)), 1, "drain",
				List.of("events=" + option("lost-events", 500), "limitSeconds=60"));
		table(name, medians, List.of("received", "lost"), "received");
	}

	private void latency(int rounds) {
		List<Entrant> contenders = contenders("latency-contenders", LATENCY);
		int rate = option("latency-rate", 500);
		int seconds = option("latency-seconds", 30);
		String steady = "delivery latency, " + rate + " events/s for " + seconds + " s";
		List<String> steadyParameters = new ArrayList<>(latencyParameters());
		steadyParameters.add("rate=" + rate);
		steadyParameters.add("seconds=" + seconds);
		table(steady, rounds(steady, contenders, rounds, "latency-steady", steadyParameters),
				List.of("achievedRate", "p50Millis", "p99Millis", "maxMillis", "received", "lost"), "p99Millis");
		latencyBurst(contenders, rounds);
	}

	private Map<Entrant, Map<String, Double>> latencyBurst(List<Entrant> contenders, int rounds) {
		int transactions = option("latency-burst-transactions", 20_000);
		String burst = "delivery latency, 8 threads writing " + transactions + " events as fast as they can";
		List<String> burstParameters = new ArrayList<>(latencyParameters());
		burstParameters.add("transactions=" + transactions);
		Map<Entrant, Map<String, Double>> medians = rounds(burst, contenders, rounds, "latency-burst", burstParameters);
		table(burst, medians, List.of("transactionsPerSecond", "p50Millis", "p99Millis", "maxMillis", "received", "lost"),
				"p99Millis");
		return medians;
	}

	private List<String> latencyParameters() {
		return List.of("warmup=" + option("warmup", DEFAULT_WARMUP),
				"limitSeconds=" + option("latency-limit-seconds", 120));
	}

	private void scaleOut(int rounds) {
		int events = option("scaleout-events", 100_000);
		String name = "scale-out, backlog drain of " + events + " events by several starter instances"
				+ " (application contexts in one JVM)";
		Map<Integer, Map<String, Double>> medians = rounds(name, List.of(1, 2, 3), rounds, BenchmarkSuite::instances,
				(instances) -> runChild(Entrant.of(Contenders.STARTER), "scaleout",
						List.of("events=" + events, "instances=" + instances), heap()));
		table(name, "starter", medians, BenchmarkSuite::instances, 1, "1 instance",
				List.of("drainSeconds", "eventsPerSecond", "lost"), "eventsPerSecond");
	}

	private static String instances(int count) {
		return count + ((count == 1) ? " instance" : " instances");
	}

	private void memory(int rounds) {
		int events = option("memory-events", 1_000_000);
		String name = "large backlog, " + events + " pending events bulk-inserted with SQL, drained under -Xmx256m";
		List<String> parameters = List.of("events=" + events, "limitSeconds=" + option("memory-limit-seconds", 1_800));
		Map<Entrant, Map<String, Double>> medians = rounds(name, List.of(Entrant.of(Contenders.STARTER)), rounds,
				Entrant::label, (contender) -> runChild(contender, "memory", parameters, "256m"));
		table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes",
				"peakHeapAfterCollectionsMegabytes", "lost", "outOfMemoryErrors"), "eventsPerSecond");
	}

	private Map<Integer, Map<String, Double>> retained(int rounds) {
		int retained = option("retained-rows", 10_000_000);
		int events = option("outage-events", 100_000);
		String name = "the starter with " + retained + " published rows retained and with an empty table: write cost"
				+ " (8 threads), then the drain of " + events + " events after an outage of the running broker";
		List<String> parameters = List.of("transactions=" + option("transactions", 20_000),
				"warmup=" + option("warmup", DEFAULT_WARMUP), "events=" + events);
		Map<Integer, Map<String, Double>> medians = rounds(name, List.of(0, retained), rounds, BenchmarkSuite::retainedRows,
				(rows) -> {
					List<String> withRows = new ArrayList<>(parameters);
					withRows.add("retained=" + rows);
					return runChild(Entrant.of(Contenders.STARTER), "retained", withRows, heap());
				});
		table(name, "table", medians, BenchmarkSuite::retainedRows, 0, "empty", List.of("insertSeconds",
				"transactionsPerSecond", "p99Millis", "databaseCpuMicrosPerTransaction", "drainSeconds", "eventsPerSecond",
				"lost"), "transactionsPerSecond");
		this.markdown.append("drain events/s, ").append(retainedRows(retained)).append(" / empty: ")
			.append(ratio(medians.get(retained).get("eventsPerSecond"), medians.get(0).get("eventsPerSecond")))
			.append("\n\n");
		return medians;
	}

	private static String retainedRows(int rows) {
		return (rows == 0) ? "empty" : String.format(Locale.ROOT, "%,d published rows", rows);
	}

	/**
	 * The write path's targets from one command: the write cost at 8 threads, the burst's delivery
	 * latency, the drain after an outage and the retained rows, then one table of each target with the
	 * ratio of the medians, the ratios round by round (the contenders alternate, so a round's ratio
	 * compares runs made minutes apart) and whether it is met.
	 */
	private void targets(int rounds) {
		Map<Entrant, Map<String, Double>> write = writeCost(contenders("write-contenders", TARGET_WRITERS),
				option("write-rounds", rounds), 8);
		Map<Entrant, Map<String, Double>> burst = latencyBurst(
				contenders("latency-contenders", List.of(Contenders.STARTER, Contenders.NAIVE_DUAL_WRITE)),
				option("latency-rounds", rounds));
		Map<Entrant, Map<String, Double>> outage = outage(
				contenders("outage-contenders", List.of(Contenders.STARTER, Contenders.RAW_REFERENCE)),
				option("outage-rounds", rounds));
		Map<Integer, Map<String, Double>> retained = retained(option("retained-rounds", rounds));
		Map<String, Double> starter = write.get(Entrant.of(Contenders.STARTER));
		Map<String, Double> floor = write.get(Entrant.of(Contenders.DATABASE_ONLY));
		Map<String, Double> withRows = retained.get(option("retained-rows", 10_000_000));
		String rows = retainedRows(option("retained-rows", 10_000_000));
		this.markdown.append("### write path targets, ").append(this.database)
			.append("\n\n| figure | target | median | rounds | met |\n|---|---|---:|---|---|\n");
		target("starter, capture alone (fast path and relay off) / the floor", ">= 0.85", 0.85, true,
				write.get(Entrant.of(Contenders.STARTER_CAPTURE_ONLY)), floor, "transactionsPerSecond", false);
		target("starter, defaults / the floor", ">= 0.65", 0.65, true, starter, floor, "transactionsPerSecond", false);
		target("starter / naive after-commit send", ">= 1.0", 1.0, true, starter,
				write.get(Entrant.of(Contenders.NAIVE_DUAL_WRITE)), "transactionsPerSecond", false);
		target("starter / Spring Modulith", ">= 1.5", 1.5, true, starter, write.get(Entrant.of(Contenders.MODULITH)),
				"transactionsPerSecond", false);
		target("starter / relay only", ">= 0.95", 0.95, true, starter,
				write.get(Entrant.of(Contenders.STARTER_RELAY_ONLY)), "transactionsPerSecond", false);
		target("burst commit-to-receive p99, starter / naive send", "<= 1.5", 1.5, false,
				burst.get(Entrant.of(Contenders.STARTER)), burst.get(Entrant.of(Contenders.NAIVE_DUAL_WRITE)),
				"p99Millis", false);
		target("drain after an outage, starter / raw claim-publish-delete loop", ">= 0.80", 0.8, true,
				outage.get(Entrant.of(Contenders.STARTER)), outage.get(Entrant.of(Contenders.RAW_REFERENCE)),
				"eventsPerSecond", false);
		target("bytes allocated per captured event (the starter's JVM per transaction less the floor's)",
				String.format(Locale.ROOT, "<= %,.0f (half of the first measurement)",
						FIRST_MEASURED_ALLOCATION_PER_EVENT / 2),
				FIRST_MEASURED_ALLOCATION_PER_EVENT / 2, false, starter, floor, "jvmAllocatedBytesPerTransaction", true);
		target("write rate, " + rows + " / empty table", ">= 0.9", 0.9, true, withRows, retained.get(0),
				"transactionsPerSecond", false);
		target("drain after an outage (claims, sends, marks), " + rows + " / empty table", ">= 0.9", 0.9, true,
				withRows, retained.get(0), "eventsPerSecond", false);
		this.markdown.append('\n');
	}

	/**
	 * One row of the targets' table: a metric of one row against another's, as a ratio or, with
	 * {@code difference}, a difference, of the medians and round by round.
	 */
	private void target(String figure, String goal, double threshold, boolean atLeast, Map<String, Double> row,
			Map<String, Double> reference, String metric, boolean difference) {
		if (row == null || reference == null) {
			this.markdown.append("| ").append(figure).append(" | ").append(goal).append(" | – | not run | – |\n");
			return;
		}
		BinaryOperator<Double> combine = (a, b) -> (a == null || b == null || (!difference && b == 0)) ? null
				: difference ? a - b : a / b;
		Double value = combine.apply(row.get(metric), reference.get(metric));
		List<String> byRound = new ArrayList<>();
		for (int round = 0; row.containsKey(metric + ROUND + round); round++) {
			byRound.add(format(combine.apply(row.get(metric + ROUND + round), reference.get(metric + ROUND + round))));
		}
		String met = (value == null) ? "–" : ((atLeast ? value >= threshold : value <= threshold) ? "yes" : "no");
		this.markdown.append("| ").append(figure).append(" | ").append(goal).append(" | ").append(format(value))
			.append(" | ").append(String.join(", ", byRound)).append(" | ").append(met).append(" |\n");
	}

	private void sustained(int rounds) {
		int maxRate = option("sustained-max-rate", 6_000);
		int stepSeconds = option("sustained-step-seconds", 60);
		String name = "sustained rate, steps of 500 events/s up to " + maxRate + ", " + stepSeconds + " s each";
		Map<Entrant, Map<String, Double>> medians = rounds(name, contenders("sustained-contenders", SUSTAINED),
				rounds, "sustained",
				List.of("maxRate=" + maxRate, "stepSeconds=" + stepSeconds, "warmup=" + option("warmup", DEFAULT_WARMUP)));
		table(name, medians, List.of("highestHeldRate", "failedAtRate", "writerLimitedAtRate"), "highestHeldRate");
	}

	private Map<Entrant, Map<String, Double>> rounds(String name, List<Entrant> contenders, int rounds,
			String scenario, List<String> parameters) {
		return rounds(name, contenders, rounds, Entrant::label,
				(contender) -> runChild(contender, scenario, parameters, heap()));
	}

	/**
	 * Runs every row once a round, rotating their order by one each round, records the runs under
	 * {@code name} and returns each row's medians.
	 */
	private <R> Map<R, Map<String, Double>> rounds(String name, List<R> rows, int rounds, Function<R, String> label,
			Function<R, Map<String, Object>> run) {
		Map<R, List<Map<String, Object>>> runs = new LinkedHashMap<>();
		rows.forEach((row) -> runs.put(row, new ArrayList<>()));
		for (int round = 0; round < rounds; round++) {
			List<R> order = new ArrayList<>(rows);
			Collections.rotate(order, -round);
			for (R row : order) {
				System.out.printf("%s, round %d: %s%n", name, round + 1, label.apply(row));
				runs.get(row).add(run.apply(row));
			}
		}
		this.results.put(name, runs);
		Map<R, Map<String, Double>> medians = new LinkedHashMap<>();
		runs.forEach((row, results) -> {
			// Every metric any round reported: a round that ran out of memory reports only that.
			Set<String> metrics = new LinkedHashSet<>();
			results.forEach((result) -> metrics.addAll(result.keySet()));
			Map<String, Double> median = new LinkedHashMap<>();
			metrics.forEach((metric) -> median.put(metric, median(results, metric)));
			// The spread of the rounds, for the tables that show it, and each round's value, for ratios
			// taken round by round.
			metrics.forEach((metric) -> {
				median.put(metric + "Min", extreme(results, metric, -1));
				median.put(metric + "Max", extreme(results, metric, 1));
				for (int round = 0; round < results.size(); round++) {
					median.put(metric + ROUND + round, (results.get(round).get(metric) instanceof Number number)
							? number.doubleValue() : null);
				}
			});
			medians.put(row, median);
		});
		return medians;
	}

	private String heap() {
		return this.options.getOrDefault("heap", "1g");
	}

	private static Double extreme(List<Map<String, Object>> results, String metric, int sign) {
		Double extreme = null;
		for (Map<String, Object> result : results) {
			if (result.get(metric) instanceof Number number
					&& (extreme == null || Double.compare(number.doubleValue(), extreme) * sign > 0)) {
				extreme = number.doubleValue();
			}
		}
		return extreme;
	}

	private static Double median(List<Map<String, Object>> results, String metric) {
		List<Double> values = new ArrayList<>();
		for (Map<String, Object> result : results) {
			if (result.get(metric) instanceof Number number) {
				values.add(number.doubleValue());
			}
		}
		if (values.size() < results.size()) {
			return null;
		}
		Collections.sort(values);
		int middle = values.size() / 2;
		// With an even number of rounds, the mean of the middle two: the upper one alone would take, say,
		// the drain time from one round and the events per second from the other.
		return (values.size() % 2 == 1) ? values.get(middle) : (values.get(middle - 1) + values.get(middle)) / 2;
	}

	private void table(String name, Map<Entrant, Map<String, Double>> medians, List<String> metrics, String ratioOf) {
		table(name, "contender", medians, Entrant::label, Entrant.of(Contenders.STARTER), "starter", metrics, ratioOf);
	}

	private <R> void table(String name, String rowHeader, Map<R, Map<String, Double>> medians,
			Function<R, String> label, R reference, String referenceLabel, List<String> metrics, String ratioOf) {
		Double referenceValue = medians.getOrDefault(reference, Map.of()).get(ratioOf);
		this.markdown.append("### ").append(name).append("\n\n| ").append(rowHeader).append(" | ");
		metrics.forEach((metric) -> this.markdown.append(metric).append(" | "));
		this.markdown.append(ratioOf).append(" / ").append(referenceLabel).append(" |\n|---|");
		metrics.forEach((metric) -> this.markdown.append("---:|"));
		this.markdown.append("---:|\n");
		medians.forEach((row, values) -> {
			this.markdown.append("| ").append(label.apply(row)).append(" | ");
			metrics.forEach((metric) -> this.markdown.append(format(values.get(metric))).append(" | "));
			Double value = values.get(ratioOf);
			this.markdown
				.append((value != null && referenceValue != null && referenceValue != 0) ? format(value / referenceValue)
						: "–")
				.append(" |\n");
		});
		this.markdown.append('\n');
	}

	private static String format(Double value) {
		if (value == null) {
			return "–";
		}
		return (Math.abs(value) >= 100) ? String.format(Locale.ROOT, "%,.0f", value)
				: String.format(Locale.ROOT, "%.2f", value);
	}

	private Map<String, Object> runChild(Entrant contender, String scenario, List<String> parameters, String heap) {
		List<String> command = new ArrayList<>();
		command.add(FaultClassPath.javaCommand());
		command.add("-Xmx" + heap);
		// An OutOfMemoryError ends the run at once and visibly, instead of leaving a JVM whose threads died.
		command.add("-XX:+ExitOnOutOfMemoryError");
		if (this.options.containsKey("profile")) {
			// --profile=<dir>: a profile of every contender run, for finding where time goes.
			Path file = Path.of(this.options.get("profile"))
				.resolve(contender.fileName() + "-" + scenario + "-" + System.nanoTime());
			if (this.options.containsKey("async-profiler")) {
				// CPU samples of every thread, the kernel's part included where perf events allow: the
				// flight recorder samples only threads running Java code, and misses the socket calls.
				command.add("-agentpath:" + this.options.get("async-profiler")
						+ "=start,event=cpu,interval=1ms,threads,file=" + file + ".collapsed");
			}
			else {
				command.add("-XX:StartFlightRecording=settings=profile,filename=" + file + ".jfr");
			}
		}
		command.add("-cp");
		command.add(contender.baseline() ? this.baselineClassPath : System.getProperty("java.class.path"));
		command.add(ContenderProcess.class.getName());
		// The plain name: the baseline build's ContenderProcess knows its own Contenders only.
		command.add(contender.contender().name());
		command.add(scenario);
		command.add(this.broker.bootstrapServers());
		command.addAll(parameters);
		command.add("jdbcUrl=" + this.jdbcUrl);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String result = null;
			Path log = Path.of("target", "benchmarks", contender.fileName() + "-" + scenario + ".log");
			StringBuilder lines = new StringBuilder();
			try (BufferedReader out = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = out.readLine()) != null) {
					lines.append(line).append('\n');
					if (line.startsWith(BrokerControl.REQUEST)) {
						BrokerControl.carryOut(line, this.broker, process.getOutputStream());
					}
					if (line.startsWith(ContenderProcess.RESULT)) {
						result = line.substring(ContenderProcess.RESULT.length());
					}
				}
				Files.writeString(log, lines);
			}
			int exit = process.waitFor();
			// A contender that ended during its outage must not leave the next one without a broker.
			this.broker.startAgain();
			if (result == null && lines.indexOf(OUT_OF_MEMORY) >= 0) {
				// A finding, not a broken harness: the large backlog scenario reports it.
				System.out.println("  out of memory; see " + log.toAbsolutePath());
				return Map.of("outOfMemoryErrors", 1);
			}
			if (result == null) {
				throw new IllegalStateException(contender + " " + scenario + " ended with exit code " + exit
						+ " and no result; see " + log.toAbsolutePath());
			}
			Map<String, Object> values = json.readValue(result, new TypeReference<Map<String, Object>>() {
			});
			System.out.println("  " + values);
			return values;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An entry of a contender list: a contender, run from the suite's own class path or, listed as
	 * {@code NAME@baseline}, from {@code baseline-classpath}'s, as a contender of its own.
	 */
	private record Entrant(Contenders contender, boolean baseline) {

		private static final String BASELINE = "@baseline";

		static Entrant of(Contenders contender) {
			return new Entrant(contender, false);
		}

		static Entrant parse(String name) {
			int suffix = name.indexOf('@');
			if (suffix < 0) {
				return of(Contenders.valueOf(name));
			}
			Assert.isTrue(name.substring(suffix).equals(BASELINE),
					() -> "Unknown suffix in contender " + name + ": the only one is " + BASELINE);
			return new Entrant(Contenders.valueOf(name.substring(0, suffix)), true);
		}

		String label() {
			return this.baseline ? this.contender.label() + ", baseline build" : this.contender.label();
		}

		/** The start of its log's and profiles' file names. */
		String fileName() {
			String name = this.contender.name().toLowerCase(Locale.ROOT);
			return this.baseline ? name + "-baseline" : name;
		}

		/** As listed, and as the key of its runs in {@code results.json}. */
		@Override
		public String toString() {
			return this.baseline ? this.contender.name() + BASELINE : this.contender.name();
		}

	}

}
