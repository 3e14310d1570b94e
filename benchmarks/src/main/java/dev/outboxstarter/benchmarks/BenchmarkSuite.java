package dev.outboxstarter.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

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
 * {@code retained}, {@code tenants} or {@code sustained}; or {@code targets}, the write path's targets: the write cost at 8
 * threads, the burst's latency, the drain after an outage and the retained rows, and a table of the
 * targets, among them the write cost warmed up by count, {@code harness-warmup} (20000) transactions with
 * {@code -Xms1g -Xmx2g}, for {@code harness-contenders}, and the burst's whole-cycle cost per delivered
 * event), {@code database} ({@code postgresql}, the default, or {@code mariadb}: the local database;
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
 * {@code latency-burst-transactions} (20000) from 8 threads (the steady rate left out with {@code latency-seconds=0}) as fast as they go; {@code latency-limit-seconds}
 * (120, how long to wait for the events once written), {@code latency-contenders};</li>
 * <li>scale-out: {@code scaleout-events} (100000) drained by 1, 2 and 3 instances of the starter;</li>
 * <li>large backlog: {@code memory-events} (1000000) drained by the starter under {@code -Xmx256m}
 * whatever {@code heap} says, {@code memory-limit-seconds} (1800);</li>
 * <li>retained rows: {@code retained-rows} (10000000) published rows inserted into the starter's table
 * before its write cost ({@code transactions}, {@code warmup}) and its drain after an outage
 * ({@code outage-events}), against the same with an empty table;</li>
 * <li>tenants: the drain ({@code drain-events}) and the burst's latency and whole-cycle cost of the
 * starter with its events spread over 1, 10 and 100 tenants, a schema each, against the starter without
 * tenants ({@code tenants-contenders});</li>
 * <li>sustained rate: steps of 500 events/s up to {@code sustained-max-rate} (6000), each held for
 * {@code sustained-step-seconds} (60), {@code sustained-contenders}.</li>
 * </ul>
 */
public final class BenchmarkSuite {

	private static final JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	/**
	 * The broker runs as it would in production, with the optimizing compiler: the test suites' quick
	 * start-up options would make it spend the CPU the contenders share on interpreted and lightly
	 * compiled code, which weighs on every contender that publishes and not on the database-only floor.
	 */
	private static final List<String> BROKER_JVM_OPTIONS = List.of("-Xmx1g", "-XX:+UseG1GC");

	private final SuiteOptions options;

	private final SuiteScenarios scenarios;

	private final WritePathTargets targets;

	private final ResultTables tables;

	private BenchmarkSuite(SuiteOptions options, SuiteScenarios scenarios, WritePathTargets targets,
			ResultTables tables) {
		this.options = options;
		this.scenarios = scenarios;
		this.targets = targets;
		this.tables = tables;
	}

	public static void main(String[] args) throws Exception {
		SuiteOptions options = SuiteOptions.parse(args);
		Path output = Path.of("target", "benchmarks");
		Files.createDirectories(output);
		if (options.profileDirectory() != null) {
			Files.createDirectories(options.profileDirectory());
		}
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(output.resolve("kafka.log"), BROKER_JVM_OPTIONS)) {
			Rounds rounds = new Rounds();
			ResultTables tables = new ResultTables();
			SuiteScenarios scenarios = new SuiteScenarios(options, new ContenderLauncher(options, broker), rounds,
					tables);
			new BenchmarkSuite(options, scenarios, new WritePathTargets(options, scenarios, tables), tables).run();
			Files.writeString(output.resolve("results.md"), tables.markdown());
			Files.writeString(output.resolve("results.json"), json.writeValueAsString(rounds.results()));
			System.out.println();
			System.out.println(tables.markdown());
			System.out.println("Written to " + output.toAbsolutePath());
		}
	}

	private void run() {
		int rounds = this.options.number("rounds", 3);
		this.tables.header(rounds, this.options.database());
		this.scenarios.warmBroker();
		String only = this.options.only();
		if ("targets".equals(only)) {
			this.targets.run(rounds);
			return;
		}
		if (only == null || only.equals("write")) {
			this.scenarios.writeCost(this.options.number("write-rounds", rounds));
		}
		if (only == null || only.equals("drain")) {
			this.scenarios.drain(this.options.number("drain-rounds", rounds));
		}
		if (only == null || only.equals("outage")) {
			this.scenarios.outage(this.options.number("outage-rounds", rounds));
		}
		if (only == null || only.equals("lost")) {
			this.scenarios.lost();
		}
		if (only == null || only.equals("latency")) {
			this.scenarios.latency(this.options.number("latency-rounds", rounds));
		}
		if (only == null || only.equals("scaleout")) {
			this.scenarios.scaleOut(this.options.number("scaleout-rounds", rounds));
		}
		if ((only == null || only.equals("memory")) && this.options.database() == BenchmarkDatabase.POSTGRESQL) {
			this.scenarios.memory(this.options.number("memory-rounds", rounds));
		}
		if (only == null || only.equals("retained")) {
			this.scenarios.retained(this.options.number("retained-rounds", rounds));
		}
		if (only == null || only.equals("tenants")) {
			this.scenarios.tenants(this.options.number("tenants-rounds", rounds));
		}
		if (only == null || only.equals("sustained")) {
			this.scenarios.sustained(this.options.number("sustained-rounds", rounds));
		}
	}

}
