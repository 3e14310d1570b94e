package dev.outboxstarter.benchmarks;

import java.io.BufferedReader;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.outboxstarter.testsupport.FaultClassPath;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs every scenario for every contender on the same PostgreSQL and Kafka broker, alternating the
 * contenders round by round (each run in a fresh JVM, with its own warm-up), takes the median of the
 * rounds and prints a Markdown table with ratios to the starter; writes it and the raw results as
 * JSON to {@code target/benchmarks/}. Arguments ({@code --name=value}): {@code rounds} (3),
 * {@code transactions} (20000), {@code warmup} (2000), {@code drain-events} (100000),
 * {@code drain-contenders} (the drain's contenders, comma-separated {@link Contenders} names),
 * {@code lost-events} (500), {@code heap} (1g, the contender JVMs' maximum heap), {@code only} (a scenario:
 * {@code write}, {@code drain} or {@code lost}), {@code profile} (a directory for flight recordings).
 */
public final class BenchmarkSuite {

	private static final JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	/**
	 * The backlog drain's contenders unless {@code drain-contenders} names others. Not namastack at its
	 * defaults: 10 keys every 2 s take hours over a 100,000-event backlog.
	 */
	private static final List<Contenders> DRAINERS = List.of(Contenders.STARTER, Contenders.MODULITH,
			Contenders.NAMASTACK_TUNED, Contenders.RAW_REFERENCE);

	private final Map<String, String> options;

	private final KafkaBrokerProcess broker;

	private final Map<String, Object> results = new LinkedHashMap<>();

	private final StringBuilder markdown = new StringBuilder();

	private BenchmarkSuite(Map<String, String> options, KafkaBrokerProcess broker) {
		this.options = options;
		this.broker = broker;
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			options.put(pair[0], pair[1]);
		}
		Path output = Path.of("target", "benchmarks");
		Files.createDirectories(output);
		try (KafkaBrokerProcess broker = KafkaBrokerProcess.start(output.resolve("kafka.log"))) {
			BenchmarkSuite suite = new BenchmarkSuite(options, broker);
			suite.run();
			Files.writeString(output.resolve("results.md"), suite.markdown);
			Files.writeString(output.resolve("results.json"), json.writeValueAsString(suite.results));
			System.out.println();
			System.out.println(suite.markdown);
			System.out.println("Written to " + output.toAbsolutePath());
		}
	}

	private List<Contenders> contenders(String name, List<Contenders> defaultValue) {
		String names = this.options.get(name);
		if (names == null) {
			return defaultValue;
		}
		return Arrays.stream(names.split(",")).map(String::trim).map(Contenders::valueOf).toList();
	}

	private int option(String name, int defaultValue) {
		return Integer.parseInt(this.options.getOrDefault(name, String.valueOf(defaultValue)));
	}

	private void run() {
		int rounds = option("rounds", 3);
		this.markdown.append("Run ").append(Instant.now()).append(" on ")
			.append(Runtime.getRuntime().availableProcessors()).append(" cores, ")
			.append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.version"))
			.append("; ").append(rounds).append(" rounds, medians.\n\n");
		String only = this.options.get("only");
		if (only == null || only.equals("write")) {
			writeCost(rounds);
		}
		if (only == null || only.equals("drain")) {
			drain(rounds);
		}
		if (only == null || only.equals("lost")) {
			lost();
		}
	}

	private void writeCost(int rounds) {
		List<Contenders> writers = List.of(Contenders.STARTER, Contenders.STARTER_RELAY_ONLY, Contenders.MODULITH,
				Contenders.NAMASTACK_DEFAULTS, Contenders.NAMASTACK_TUNED, Contenders.DATABASE_ONLY,
				Contenders.NAIVE_DUAL_WRITE, Contenders.RAW_REFERENCE);
		for (int concurrency : new int[] { 1, 8 }) {
			String name = "write cost, concurrency " + concurrency;
			Map<Contenders, Map<String, Double>> medians = rounds(name, writers, rounds, "write",
					List.of("transactions=" + option("transactions", 20_000), "concurrency=" + concurrency,
							"warmup=" + option("warmup", 2_000)));
			table(name, medians, List.of("transactionsPerSecond", "p50Millis", "p99Millis"), "transactionsPerSecond");
		}
	}

	private void drain(int rounds) {
		String name = "backlog drain, " + option("drain-events", 100_000) + " events";
		Map<Contenders, Map<String, Double>> medians = rounds(name, contenders("drain-contenders", DRAINERS), rounds,
				"drain", List.of("events=" + option("drain-events", 100_000)));
		table(name, medians, List.of("drainSeconds", "eventsPerSecond", "peakHeapMegabytes", "lost"),
				"eventsPerSecond");
	}

	private void lost() {
		String name = "events written while the broker was down, " + option("lost-events", 500) + " events";
		Map<Contenders, Map<String, Double>> medians = rounds(name,
				List.of(Contenders.STARTER, Contenders.NAIVE_DUAL_WRITE), 1, "drain",
				List.of("events=" + option("lost-events", 500), "limitSeconds=60"));
		table(name, medians, List.of("received", "lost"), "received");
	}

	private Map<Contenders, Map<String, Double>> rounds(String name, List<Contenders> contenders, int rounds,
			String scenario, List<String> parameters) {
		Map<Contenders, List<Map<String, Object>>> runs = new LinkedHashMap<>();
		contenders.forEach((contender) -> runs.put(contender, new ArrayList<>()));
		for (int round = 0; round < rounds; round++) {
			List<Contenders> order = new ArrayList<>(contenders);
			Collections.rotate(order, -round);
			for (Contenders contender : order) {
				System.out.printf("%s, round %d: %s%n", name, round + 1, contender.label());
				runs.get(contender).add(runChild(contender, scenario, parameters));
			}
		}
		this.results.put(name, runs);
		Map<Contenders, Map<String, Double>> medians = new LinkedHashMap<>();
		runs.forEach((contender, results) -> {
			Map<String, Double> median = new LinkedHashMap<>();
			results.get(0).keySet().forEach((metric) -> median.put(metric, median(results, metric)));
			medians.put(contender, median);
		});
		return medians;
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
		return values.get(values.size() / 2);
	}

	private void table(String name, Map<Contenders, Map<String, Double>> medians, List<String> metrics, String ratioOf) {
		Double reference = medians.getOrDefault(Contenders.STARTER, Map.of()).get(ratioOf);
		this.markdown.append("### ").append(name).append("\n\n| contender | ");
		metrics.forEach((metric) -> this.markdown.append(metric).append(" | "));
		this.markdown.append(ratioOf).append(" / starter |\n|---|");
		metrics.forEach((metric) -> this.markdown.append("---:|"));
		this.markdown.append("---:|\n");
		medians.forEach((contender, values) -> {
			this.markdown.append("| ").append(contender.label()).append(" | ");
			metrics.forEach((metric) -> this.markdown.append(format(values.get(metric))).append(" | "));
			Double value = values.get(ratioOf);
			this.markdown.append((value != null && reference != null && reference != 0) ? format(value / reference) : "–")
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

	private Map<String, Object> runChild(Contenders contender, String scenario, List<String> parameters) {
		List<String> command = new ArrayList<>();
		command.add(FaultClassPath.javaCommand());
		command.add("-Xmx" + this.options.getOrDefault("heap", "1g"));
		if (this.options.containsKey("profile")) {
			// --profile=<dir>: a flight recording of every contender run, for finding where time goes.
			command.add("-XX:StartFlightRecording=settings=profile,filename=" + this.options.get("profile") + "/"
					+ contender.name().toLowerCase(Locale.ROOT) + "-" + scenario + "-" + System.nanoTime() + ".jfr");
		}
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(ContenderProcess.class.getName());
		command.add(contender.name());
		command.add(scenario);
		command.add(this.broker.bootstrapServers());
		command.addAll(parameters);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String result = null;
			Path log = Path.of("target", "benchmarks", contender.name().toLowerCase(Locale.ROOT) + "-" + scenario + ".log");
			try (BufferedReader out = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				StringBuilder lines = new StringBuilder();
				String line;
				while ((line = out.readLine()) != null) {
					lines.append(line).append('\n');
					if (line.startsWith(ContenderProcess.RESULT)) {
						result = line.substring(ContenderProcess.RESULT.length());
					}
				}
				Files.writeString(log, lines);
			}
			int exit = process.waitFor();
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

}
