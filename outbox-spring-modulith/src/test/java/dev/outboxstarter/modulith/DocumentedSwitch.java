package dev.outboxstarter.modulith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The switch to Modulith's outbox mode as docs/migrating-from-spring-modulith.md gives it: the
 * dependency and the properties of the section's code blocks, read from the page, so that the tests
 * run what it says.
 */
final class DocumentedSwitch {

	private static final Path PAGE = Path.of("..", "docs", "migrating-from-spring-modulith.md");

	private static final String SECTION = "## Modulith's outbox mode";

	private DocumentedSwitch() {
	}

	/**
	 * The section's {@code properties} block.
	 * @return its {@code name=value} lines
	 */
	static String[] properties() {
		return block("properties").stream().filter((line) -> !line.isBlank()).toArray(String[]::new);
	}

	/**
	 * A value of the section's Maven dependency.
	 * @param element {@code groupId}, {@code artifactId} or {@code version}
	 * @return its value
	 */
	static String dependency(String element) {
		Matcher value = Pattern.compile("<" + element + ">([^<]+)</" + element + ">")
			.matcher(String.join("\n", block("xml")));
		if (!value.find()) {
			throw new IllegalStateException("No <" + element + "> in the dependency of " + PAGE);
		}
		return value.group(1);
	}

	private static List<String> block(String language) {
		List<String> lines;
		try {
			lines = Files.readAllLines(PAGE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		int start = lines.indexOf(lines.stream()
			.filter((line) -> line.startsWith(SECTION))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No section '" + SECTION + "' in " + PAGE)));
		List<String> block = new ArrayList<>();
		boolean inside = false;
		for (String line : lines.subList(start + 1, lines.size())) {
			if (line.startsWith("## ")) {
				break;
			}
			if (!inside && line.equals("```" + language)) {
				inside = true;
			}
			else if (inside && line.equals("```")) {
				return block;
			}
			else if (inside) {
				block.add(line);
			}
		}
		throw new IllegalStateException("No ```" + language + " block in '" + SECTION + "' of " + PAGE);
	}

}
