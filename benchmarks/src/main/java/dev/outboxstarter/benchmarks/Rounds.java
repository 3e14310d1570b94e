package dev.outboxstarter.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs the rows of a table (contenders, or settings of one) round by round and takes the medians of
 * their results; keeps every run's raw result for {@code results.json}.
 */
final class Rounds {

	/** Separates a metric's name from a round's number in the medians' keys, {@code name#0}. */
	static final String ROUND = "#";

	private final Map<String, Object> results = new LinkedHashMap<>();

	/**
	 * Runs every row once a round, rotating their order by one each round, records the runs under
	 * {@code name} and returns each row's medians: for every metric any round reported, its median,
	 * its smallest and largest value ({@code metricMin}, {@code metricMax}) and each round's value
	 * ({@code metric#0}, {@code metric#1}, ...).
	 * @param <R> the type of the rows
	 * @param name the table's name, the key of its runs in {@code results.json}
	 * @param rows the rows
	 * @param rounds how many rounds
	 * @param label a row's name in the progress lines
	 * @param run runs a row once and returns its result
	 * @return each row's medians, in the order of {@code rows}
	 */
	<R> Map<R, Map<String, Double>> run(String name, List<R> rows, int rounds, Function<R, String> label,
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

	/** Every table's runs by row, in the order they were made. */
	Map<String, Object> results() {
		return Collections.unmodifiableMap(this.results);
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

}
