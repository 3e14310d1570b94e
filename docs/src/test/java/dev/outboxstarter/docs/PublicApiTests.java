package dev.outboxstarter.docs;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.outboxstarter.console.OutboxConsoleEndpoint;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.schemaregistry.AvroPayloadSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/api.md} names every public type of the starter's library and of the console outside the
 * engine's internal packages, and only those: a type made public without being added there, or listed there after it became
 * package-private or internal, fails the build.
 */
class PublicApiTests {

	/** The engine's packages, whose types are public only to one another. */
	private static final String INTERNAL = "dev.outboxstarter.internal.";

	/** A table row's first cell: a type's simple name, optionally followed by its package. */
	private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)`(?: \\(`([\\w.]+)`\\))? \\|", Pattern.MULTILINE);

	/** A section heading that names the package of the rows below it. */
	private static final Pattern SECTION = Pattern.compile("^## .*?`(dev\\.outboxstarter[\\w.]*)`", Pattern.MULTILINE);

	@Test
	void apiPageListsExactlyThePublicTypesOfTheLibrary() throws Exception {
		assertThat(documentedTypes()).as("the public types named in docs/api.md")
			.isEqualTo(publicTypesOfTheLibrary());
	}

	private static Set<String> documentedTypes() throws IOException {
		String page = Files.readString(DocumentationPages.root().resolve("docs/api.md"));
		Set<String> types = new TreeSet<>();
		String section = null;
		for (String line : page.lines().toList()) {
			Matcher heading = SECTION.matcher(line);
			if (heading.find()) {
				section = heading.group(1);
			}
			Matcher row = ROW.matcher(line);
			if (row.find() && section != null) {
				types.add(((row.group(2) != null) ? row.group(2) : section) + "." + row.group(1));
			}
		}
		return types;
	}

	private static Set<String> publicTypesOfTheLibrary() throws Exception {
		Set<String> types = new TreeSet<>();
		types.addAll(publicTypesIn(OutboxAutoConfiguration.class));
		types.addAll(publicTypesIn(OutboxConsoleEndpoint.class));
		types.addAll(publicTypesIn(AvroPayloadSerializer.class));
		return types;
	}

	/** The public types of the jar (or classes directory) that holds a type. */
	private static Set<String> publicTypesIn(Class<?> member) throws Exception {
		String library = member.getProtectionDomain().getCodeSource().getLocation().toString();
		Set<String> types = new TreeSet<>();
		for (Resource resource : new PathMatchingResourcePatternResolver()
			.getResources("classpath*:dev/outboxstarter/**/*.class")) {
			String url = resource.getURL().toString();
			if (!url.startsWith(library) && !url.startsWith("jar:" + library)) {
				continue;
			}
			String path = url.substring(url.lastIndexOf("dev/outboxstarter/"));
			String name = ClassUtils.convertResourcePathToClassName(path.substring(0, path.length() - ".class".length()));
			if (name.contains("$") || name.endsWith("package-info") || name.startsWith(INTERNAL)) {
				continue;
			}
			Class<?> type = ClassUtils.forName(name, PublicApiTests.class.getClassLoader());
			if (Modifier.isPublic(type.getModifiers())) {
				types.add(name);
			}
		}
		assertThat(types).as("public types found in %s", library).isNotEmpty();
		return types;
	}

}
