package dev.outboxstarter.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard shipped in {@code docs/operations/outbox-dashboard.json}: its panels' PromQL
 * queries and its variables' queries, and the metric names they read.
 */
final class ShippedDashboard {

	static final Path FILE = Path.of("..", "docs", "operations", "outbox-dashboard.json").toAbsolutePath().normalize();

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*\\w+\\s*\\)");

	/** Label matchers, strings, ranges and the label lists of aggregations and vector matching. */
	private static final Pattern NOT_METRIC_NAMES = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|\\{[^}]*}|\\[[^\\]]*]"
			+ "|\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");

	/** An identifier that is not a function call. */
	private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w:.$])([a-zA-Z_:][\\w:]*)\\b(?!\\s*\\()");

	private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");

	private final JsonNode content;

	private ShippedDashboard(JsonNode content) {
		this.content = content;
	}

	static ShippedDashboard load() {
		assertThat(FILE).as("the shipped dashboard").isRegularFile();
		return new ShippedDashboard(new JsonMapper().readTree(FILE.toFile()));
	}

	/**
	 * The PromQL query of every panel target.
	 * @return the queries
	 */
	List<String> panelQueries() {
		List<String> queries = new ArrayList<>();
		for (JsonNode panel : this.content.path("panels")) {
			for (JsonNode nested : panel.path("panels")) {
				nested.path("targets").forEach((target) -> queries.add(target.path("expr").asString()));
			}
			panel.path("targets").forEach((target) -> queries.add(target.path("expr").asString()));
		}
		return queries;
	}

	/**
	 * The PromQL series selectors of the variables' {@code label_values(...)} queries.
	 * @return the selectors
	 */
	List<String> variableSelectors() {
		List<String> selectors = new ArrayList<>();
		for (JsonNode variable : this.content.path("templating").path("list")) {
			if ("query".equals(variable.path("type").asString())) {
				String query = variable.path("query").path("query").asString();
				Matcher matcher = LABEL_VALUES.matcher(query);
				assertThat(matcher.matches()).as("variable %s's query: %s", variable.path("name").asString(), query)
					.isTrue();
				selectors.add(matcher.group(1));
			}
		}
		return selectors;
	}

	/**
	 * A panel's or variable's query with the dashboard's variables replaced, runnable on Prometheus.
	 * @param query the query as in the dashboard
	 * @param variables the values of {@code $job}, {@code $instance} and such
	 * @return the query
	 */
	static String resolve(String query, Map<String, String> variables) {
		String resolved = query.replace("$__rate_interval", "1m");
		for (Map.Entry<String, String> variable : variables.entrySet()) {
			resolved = resolved.replace("$" + variable.getKey(), variable.getValue());
		}
		assertThat(resolved).as("every variable resolved").doesNotContain("$");
		return resolved;
	}

	/**
	 * The metric names a PromQL expression reads.
	 * @param promql the expression
	 * @return the names
	 */
	static Set<String> metricNames(String promql) {
		String names = NOT_METRIC_NAMES.matcher(promql).replaceAll(" ");
		Set<String> found = new TreeSet<>();
		Matcher matcher = IDENTIFIER.matcher(names);
		while (matcher.find()) {
			if (!KEYWORDS.contains(matcher.group(1).toLowerCase(Locale.ROOT))) {
				found.add(matcher.group(1));
			}
		}
		return found;
	}

}
