package dev.outboxstarter.benchmarks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.util.Assert;

/**
 * The suite's command-line options, {@code --name=value} each (listed in {@link BenchmarkSuite}), checked
 * before the broker starts.
 */
final class SuiteOptions {

	private final Map<String, String> options;

	/** The class path of {@code baseline-classpath}'s build, or {@code null} without one. */
	private final String baselineClassPath;

	/** Where every contender makes its schema. */
	private final String jdbcUrl;

	private final BenchmarkDatabase database;

	private SuiteOptions(Map<String, String> options, String baselineClassPath, String jdbcUrl) {
		this.options = options;
		this.baselineClassPath = baselineClassPath;
		this.jdbcUrl = jdbcUrl;
		this.database = BenchmarkDatabase.of(jdbcUrl);
	}

	/**
	 * Reads the options and checks them, every contender list included.
	 * @param args the suite's arguments
	 * @return the options
	 * @throws IOException if the {@code baseline-classpath} file cannot be read
	 */
	static SuiteOptions parse(String[] args) throws IOException {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			options.put(pair[0], pair[1]);
		}
		if (options.containsKey("async-profiler")) {
			Assert.isTrue(options.containsKey("profile"), "--async-profiler needs --profile=<dir> for its output");
			Assert.isTrue(Files.isRegularFile(Path.of(options.get("async-profiler"))), () -> "--async-profiler="
					+ options.get("async-profiler") + " is not a file: give the path of libasyncProfiler.so");
		}
		String baselineClassPath = options.containsKey("baseline-classpath")
				? baselineClassPath(Path.of(options.get("baseline-classpath"))) : null;
		SuiteOptions suiteOptions = new SuiteOptions(Map.copyOf(options), baselineClassPath, jdbcUrl(options));
		Assert.isTrue(suiteOptions.database == BenchmarkDatabase.POSTGRESQL || !"memory".equals(options.get("only")),
				"--only=memory bulk-inserts its backlog with PostgreSQL's SQL: run it without --database=mariadb");
		// Every contender list read now: a mistake in one stops the run before the first scenario, not hours in.
		options.forEach((name, names) -> {
			if (name.endsWith("-contenders")) {
				suiteOptions.entrants(name, names);
			}
		});
		return suiteOptions;
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

	/**
	 * The contenders an option lists, or those of {@code defaultValue} that are set up for the database.
	 * @param name the option, {@code <scenario>-contenders}
	 * @param defaultValue the scenario's contenders unless the option names others
	 * @return the contenders
	 */
	List<Entrant> contenders(String name, List<Contenders> defaultValue) {
		String names = this.options.get(name);
		if (names == null) {
			// The defaults that are not set up for this database are left out, not failed.
			return defaultValue.stream().filter((contender) -> contender.runsOn(this.database)).map(Entrant::of).toList();
		}
		return entrants(name, names);
	}

	private List<Entrant> entrants(String name, String names) {
		List<Entrant> entrants = Arrays.stream(names.split(",")).map(String::trim).map(Entrant::parse).toList();
		Assert.isTrue(this.baselineClassPath != null || entrants.stream().noneMatch(Entrant::baseline),
				() -> "--" + name + "=" + names + ": a contender NAME" + Entrant.BASELINE
						+ " needs --baseline-classpath=<file holding the baseline build's class path>");
		entrants.forEach((entrant) -> Assert.isTrue(entrant.contender().runsOn(this.database),
				() -> "--" + name + "=" + names + ": " + entrant + " is not set up for " + this.database
						+ "; leave it out or run on PostgreSQL"));
		return entrants;
	}

	/**
	 * A whole-number option.
	 * @param name the option
	 * @param defaultValue its value unless given
	 * @return its value
	 */
	int number(String name, int defaultValue) {
		return Integer.parseInt(this.options.getOrDefault(name, String.valueOf(defaultValue)));
	}

	/**
	 * An option as given.
	 * @param name the option
	 * @param defaultValue its value unless given
	 * @return its value
	 */
	String value(String name, String defaultValue) {
		return this.options.getOrDefault(name, defaultValue);
	}

	/** The one scenario {@code only} names, or {@code null} for every one. */
	String only() {
		return this.options.get("only");
	}

	/** The contender JVMs' maximum heap, {@code heap}. */
	String heap() {
		return this.options.getOrDefault("heap", "1g");
	}

	/** The directory of {@code profile} for a profile of every contender run, or {@code null}. */
	Path profileDirectory() {
		return this.options.containsKey("profile") ? Path.of(this.options.get("profile")) : null;
	}

	/** The path of {@code async-profiler}'s library, or {@code null} for flight recordings. */
	String asyncProfiler() {
		return this.options.get("async-profiler");
	}

	/** The class path of {@code baseline-classpath}'s build, or {@code null} without one. */
	String baselineClassPath() {
		return this.baselineClassPath;
	}

	/** Where every contender makes its schema. */
	String jdbcUrl() {
		return this.jdbcUrl;
	}

	BenchmarkDatabase database() {
		return this.database;
	}

}
