package dev.outboxstarter.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Prometheus alert rules shipped in {@code docs/operations/outbox-alerts.yml}, and a copy of them
 * for a test that cannot wait minutes: the same alerts and expressions, with other thresholds and
 * {@code for} durations. A threshold is the number an alert's expression ends with, as the file's
 * header tells operators.
 */
final class ShippedAlertRules {

	static final Path FILE = Path.of("..", "docs", "operations", "outbox-alerts.yml").toAbsolutePath().normalize();

	private static final Pattern THRESHOLD = Pattern.compile("(>\\s*)([0-9.]+)\\s*$");

	private final Map<String, Object> content;

	private ShippedAlertRules(Map<String, Object> content) {
		this.content = content;
	}

	static ShippedAlertRules load() {
		assertThat(FILE).as("the shipped alert rules").isRegularFile();
		try {
			return new ShippedAlertRules(new Yaml().load(Files.readString(FILE)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	List<String> alertNames() {
		return alerts().stream().map((alert) -> (String) alert.get("alert")).toList();
	}

	List<String> expressions() {
		return alerts().stream().map((alert) -> (String) alert.get("expr")).toList();
	}

	/**
	 * Writes the copy for a test: every {@code for} set to the given duration, and the named alerts'
	 * thresholds replaced.
	 * @param target the file to write
	 * @param holdFor the {@code for} of every alert
	 * @param thresholds new thresholds by alert name
	 * @return the file written
	 */
	Path writeForTest(Path target, Duration holdFor, Map<String, String> thresholds) {
		List<String> replaced = new ArrayList<>();
		for (Map<String, Object> alert : alerts()) {
			String name = (String) alert.get("alert");
			alert.put("for", holdFor.toMillis() + "ms");
			String threshold = thresholds.get(name);
			if (threshold != null) {
				String expr = (String) alert.get("expr");
				Matcher matcher = THRESHOLD.matcher(expr);
				assertThat(matcher.find()).as("%s's expression ends with its threshold: %s", name, expr).isTrue();
				alert.put("expr", matcher.replaceFirst("$1" + threshold));
				replaced.add(name);
			}
		}
		assertThat(replaced).as("alerts whose threshold the test sets").containsExactlyInAnyOrderElementsOf(thresholds.keySet());
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		try {
			Files.createDirectories(target.getParent());
			Files.writeString(target, new Yaml(options).dump(this.content));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return target;
	}

	@SuppressWarnings("unchecked")
	private List<Map<String, Object>> alerts() {
		List<Map<String, Object>> alerts = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) this.content.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				if (rule.containsKey("alert")) {
					alerts.add(rule);
				}
			}
		}
		return alerts;
	}

}
