package dev.outboxstarter.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * The write path's targets from one command ({@code --only=targets}): the write cost at 8 threads, then
 * again as a harness that warms up by count measures it ({@link SuiteScenarios#harnessWriteCost}), the
 * burst's delivery latency and its whole cycle's cost per delivered event, the drain after an outage and
 * the retained rows, then one table of each target with the ratio of the medians, the ratios round by
 * round (the contenders alternate, so a round's ratio compares runs made minutes apart) and whether it is
 * met.
 */
final class WritePathTargets {

	/** The write path's contenders unless {@code write-contenders} names others. */
	private static final List<Contenders> WRITERS = List.of(Contenders.STARTER, Contenders.STARTER_RELAY_ONLY,
			Contenders.STARTER_CAPTURE_ONLY, Contenders.DATABASE_ONLY, Contenders.NAIVE_DUAL_WRITE, Contenders.MODULITH);

	/** The goal of a figure shown beside the targets for comparison. */
	private static final String NO_TARGET = "–";

	/** The write path's contenders as a harness that warms up by count runs them, unless {@code harness-contenders} names others. */
	private static final List<Contenders> HARNESS_WRITERS = List.of(Contenders.STARTER, Contenders.MODULITH,
			Contenders.STARTER_CAPTURE_ONLY, Contenders.DATABASE_ONLY);

	/**
	 * Bytes the JVM allocated per captured event the first time it was measured (the starter's per
	 * transaction less the floor's, PostgreSQL, 8 threads): the write path's target is half of it.
	 */
	private static final double FIRST_MEASURED_ALLOCATION_PER_EVENT = 9_623;

	private final SuiteOptions options;

	private final SuiteScenarios scenarios;

	private final ResultTables tables;

	WritePathTargets(SuiteOptions options, SuiteScenarios scenarios, ResultTables tables) {
		this.options = options;
		this.scenarios = scenarios;
		this.tables = tables;
	}

	/**
	 * Runs the scenarios the targets are measured with and prints the targets' table.
	 * @param rounds the rounds, unless a scenario's own option says otherwise
	 */
	void run(int rounds) {
		Map<Entrant, Map<String, Double>> write = this.scenarios.writeCost(
				this.options.contenders("write-contenders", WRITERS), this.options.number("write-rounds", rounds), 8);
		Map<Entrant, Map<String, Double>> harness = this.scenarios.harnessWriteCost(
				this.options.contenders("harness-contenders", HARNESS_WRITERS),
				this.options.number("harness-rounds", rounds));
		Map<Entrant, Map<String, Double>> burst = this.scenarios.latencyBurst(this.options.contenders(
				"latency-contenders", List.of(Contenders.STARTER, Contenders.NAIVE_DUAL_WRITE, Contenders.MODULITH,
						Contenders.RAW_REFERENCE)),
				this.options.number("latency-rounds", rounds));
		Map<Entrant, Map<String, Double>> outage = this.scenarios.outage(
				this.options.contenders("outage-contenders", List.of(Contenders.STARTER, Contenders.RAW_REFERENCE)),
				this.options.number("outage-rounds", rounds));
		Map<Integer, Map<String, Double>> retained = this.scenarios
			.retained(this.options.number("retained-rounds", rounds));
		Map<String, Double> starter = write.get(Entrant.of(Contenders.STARTER));
		Map<String, Double> floor = write.get(Entrant.of(Contenders.DATABASE_ONLY));
		Map<String, Double> withRows = retained.get(this.options.number("retained-rows", 10_000_000));
		String rows = SuiteScenarios.retainedRows(this.options.number("retained-rows", 10_000_000));
		this.tables.text("### write path targets, " + this.options.database()
				+ "\n\n| figure | target | median | rounds | met |\n|---|---|---:|---|---|\n");
		target("starter, capture alone (fast path and relay off) / the floor", ">= 0.85", 0.85, true,
				write.get(Entrant.of(Contenders.STARTER_CAPTURE_ONLY)), floor, "transactionsPerSecond", false);
		target("starter, defaults / the floor", ">= 0.65", 0.65, true, starter, floor, "transactionsPerSecond", false);
		target("starter / naive after-commit send", ">= 1.0", 1.0, true, starter,
				write.get(Entrant.of(Contenders.NAIVE_DUAL_WRITE)), "transactionsPerSecond", false);
		target("starter / Spring Modulith", ">= 1.5", 1.5, true, starter, write.get(Entrant.of(Contenders.MODULITH)),
				"transactionsPerSecond", false);
		target("starter / Spring Modulith, warmed up by count (-Xms1g -Xmx2g)", ">= 1.0", 1.0, true,
				harness.get(Entrant.of(Contenders.STARTER)), harness.get(Entrant.of(Contenders.MODULITH)),
				"transactionsPerSecond", false);
		target("starter / the floor, warmed up by count", NO_TARGET, 0, true, harness.get(Entrant.of(Contenders.STARTER)),
				harness.get(Entrant.of(Contenders.DATABASE_ONLY)), "transactionsPerSecond", false);
		target("starter, capture alone / the floor, warmed up by count", NO_TARGET, 0, true,
				harness.get(Entrant.of(Contenders.STARTER_CAPTURE_ONLY)),
				harness.get(Entrant.of(Contenders.DATABASE_ONLY)), "transactionsPerSecond", false);
		target("starter / relay only", ">= 0.95", 0.95, true, starter,
				write.get(Entrant.of(Contenders.STARTER_RELAY_ONLY)), "transactionsPerSecond", false);
		target("burst commit-to-receive p99, starter / naive send", "<= 1.5", 1.5, false,
				burst.get(Entrant.of(Contenders.STARTER)), burst.get(Entrant.of(Contenders.NAIVE_DUAL_WRITE)),
				"p99Millis", false);
		target("whole cycle, CPU per delivered event (JVM, database, broker), starter / Spring Modulith", "<= 0.7",
				0.7, false, burst.get(Entrant.of(Contenders.STARTER)), burst.get(Entrant.of(Contenders.MODULITH)),
				"cycleCpuMicrosPerEvent", false);
		target("whole cycle, CPU per delivered event, starter / raw claim-publish-delete loop", "<= 1.2", 1.2, false,
				burst.get(Entrant.of(Contenders.STARTER)), burst.get(Entrant.of(Contenders.RAW_REFERENCE)),
				"cycleCpuMicrosPerEvent", false);
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
		this.tables.text("\n");
	}

	/**
	 * One row of the targets' table: a metric of one row against another's, as a ratio or, with
	 * {@code difference}, a difference, of the medians and round by round.
	 */
	private void target(String figure, String goal, double threshold, boolean atLeast, Map<String, Double> row,
			Map<String, Double> reference, String metric, boolean difference) {
		if (row == null || reference == null) {
			this.tables.text("| " + figure + " | " + goal + " | – | not run | – |\n");
			return;
		}
		BinaryOperator<Double> combine = (a, b) -> (a == null || b == null || (!difference && b == 0)) ? null
				: difference ? a - b : a / b;
		Double value = combine.apply(row.get(metric), reference.get(metric));
		List<String> byRound = new ArrayList<>();
		for (int round = 0; row.containsKey(metric + Rounds.ROUND + round); round++) {
			byRound.add(ResultTables.format(
					combine.apply(row.get(metric + Rounds.ROUND + round), reference.get(metric + Rounds.ROUND + round))));
		}
		// A figure shown beside the targets, with no target of its own, is neither met nor missed.
		String met = (value == null || goal.equals(NO_TARGET)) ? "–"
				: ((atLeast ? value >= threshold : value <= threshold) ? "yes" : "no");
		this.tables.text("| " + figure + " | " + goal + " | " + ResultTables.format(value) + " | "
				+ String.join(", ", byRound) + " | " + met + " |\n");
	}

}
