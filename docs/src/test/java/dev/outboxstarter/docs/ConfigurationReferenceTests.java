package dev.outboxstarter.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * {@code docs/configuration.md} lists every {@code outbox.*} property of the configuration metadata,
 * with the type, default and description the metadata gives, and nothing else: its table cannot drift
 * from the code. With {@code -Doutbox.docs.update=true} the test writes the table instead of checking
 * it.
 */
class ConfigurationReferenceTests {

	static final String BEGIN = "<!-- The table below is generated from the configuration metadata: do not edit it, regenerate it (see the docs module's ConfigurationReferenceTests). -->";

	static final String END = "<!-- End of the generated table. -->";

	static final String REGENERATE = "./mvnw -pl docs -am verify -Dtest=ConfigurationReferenceTests"
			+ " -Dsurefire.failIfNoSpecifiedTests=false -Doutbox.docs.update=true";

	@Test
	void configurationPageListsEveryPropertyOfTheMetadata() throws IOException {
		Path page = DocumentationPages.root().resolve("docs/configuration.md");
		assertThat(page).as("the configuration page").exists();
		String text = Files.readString(page);
		int begin = text.indexOf(BEGIN);
		int end = text.indexOf(END);
		if (begin < 0 || end < begin) {
			fail("docs/configuration.md must hold the generated table between the lines%n  %s%nand%n  %s", BEGIN, END);
		}
		String documented = text.substring(begin + BEGIN.length(), end).strip() + "\n";
		String generated = ConfigurationReference.table();
		assertThat(ConfigurationReference.rows()).as("outbox.* properties in the configuration metadata").hasSizeGreaterThan(30);
		if (Boolean.getBoolean("outbox.docs.update")) {
			Files.writeString(page, text.substring(0, begin + BEGIN.length()) + "\n\n" + generated + "\n"
					+ text.substring(end));
			return;
		}
		if (!documented.equals(generated)) {
			fail("docs/configuration.md does not match the configuration metadata:%n  %s%n"
					+ "Regenerate the page's table with%n  %s", String.join("\n  ", differences(documented)), REGENERATE);
		}
	}

	private static List<String> differences(String documented) {
		Map<String, String> expected = ConfigurationReference.rows();
		Map<String, String> actual = new LinkedHashMap<>();
		documented.lines().filter((line) -> line.startsWith("| `")).forEach((line) -> {
			String name = line.substring(3, line.indexOf('`', 3));
			actual.put(name, line);
		});
		List<String> differences = new ArrayList<>();
		expected.forEach((name, row) -> {
			if (!actual.containsKey(name)) {
				differences.add(name + " is missing from the page");
			}
			else if (!actual.get(name).equals(row)) {
				differences.add(name + " differs: the page says%n    %s%n  the metadata says%n    %s".formatted(actual.get(name), row));
			}
		});
		actual.keySet().stream().filter((name) -> !expected.containsKey(name))
			.forEach((name) -> differences.add(name + " is on the page but not in the metadata"));
		if (differences.isEmpty()) {
			differences.add("the table's header or layout differs from the generated one");
		}
		return differences;
	}

}
