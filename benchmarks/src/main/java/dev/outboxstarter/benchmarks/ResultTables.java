package dev.outboxstarter.benchmarks;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The suite's report: Markdown tables of the medians, each with a ratio to a reference row, and the
 * lines between them.
 */
final class ResultTables {

	private final StringBuilder markdown = new StringBuilder();

	/**
	 * The report's first line: when, on what, how many rounds.
	 * @param rounds the rounds, unless a scenario's own option says otherwise
	 * @param database the database the contenders use
	 */
	void header(int rounds, BenchmarkDatabase database) {
		this.markdown.append("Run ").append(Instant.now()).append(" on ")
			.append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
			.append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
			.append(", ").append(database).append("; ").append(rounds).append(" rounds, medians.\n\n");
	}

	/**
	 * A table of contenders, with the ratio of one metric to the starter's.
	 * @param name the table's name
	 * @param medians each contender's medians
	 * @param metrics the columns
	 * @param ratioOf the metric of the last column's ratio
	 */
	void table(String name, Map<Entrant, Map<String, Double>> medians, List<String> metrics, String ratioOf) {
		table(name, "contender", medians, Entrant::label, Entrant.of(Contenders.STARTER), "starter", metrics, ratioOf);
	}

	/**
	 * A table of rows, with the ratio of one metric to a reference row's.
	 * @param <R> the type of the rows
	 * @param name the table's name
	 * @param rowHeader the first column's header
	 * @param medians each row's medians
	 * @param label a row's name in the first column
	 * @param reference the row the ratios are taken to
	 * @param referenceLabel its name in the last column's header
	 * @param metrics the columns
	 * @param ratioOf the metric of the last column's ratio
	 */
	<R> void table(String name, String rowHeader, Map<R, Map<String, Double>> medians, Function<R, String> label,
			R reference, String referenceLabel, List<String> metrics, String ratioOf) {
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

	/**
	 * The write cost's ratios: each contender's median rate to the database-only floor's, with the
	 * spread of its rounds, and the starter's to the references the write path is measured against and
	 * to the baseline build's starter.
	 * @param name the write cost table's name
	 * @param medians each contender's medians
	 */
	void writeRatios(String name, Map<Entrant, Map<String, Double>> medians) {
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

	/**
	 * Text between or after the tables, as given.
	 * @param text Markdown
	 */
	void text(String text) {
		this.markdown.append(text);
	}

	/** The report so far. */
	String markdown() {
		return this.markdown.toString();
	}

	/** A ratio as the tables show it, or a dash where either side is missing or the reference is 0. */
	static String ratio(Double value, Double reference) {
		return (value != null && reference != null && reference != 0) ? format(value / reference) : "–";
	}

	/** A figure as the tables show it: whole from 100 on, else to two decimals; a dash where missing. */
	static String format(Double value) {
		if (value == null) {
			return "–";
		}
		return (Math.abs(value) >= 100) ? String.format(Locale.ROOT, "%,.0f", value)
				: String.format(Locale.ROOT, "%.2f", value);
	}

}
