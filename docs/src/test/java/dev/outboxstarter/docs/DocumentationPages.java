package dev.outboxstarter.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Markdown pages a reader sees: the repository's {@code README.md} and every {@code .md} file under
 * {@code docs/}.
 */
final class DocumentationPages {

	private DocumentationPages() {
	}

	/**
	 * The repository's root directory: the {@code outbox.docs.root} system property the build sets, or
	 * the parent of the working directory (the docs module's directory when run from an IDE).
	 */
	static Path root() {
		String root = System.getProperty("outbox.docs.root");
		return ((root != null) ? Path.of(root) : Path.of("..")).toAbsolutePath().normalize();
	}

	static List<Path> all() {
		Path root = root();
		List<Path> pages = new ArrayList<>();
		pages.add(root.resolve("README.md"));
		try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
			files.filter((file) -> file.toString().endsWith(".md"))
				.filter((file) -> !file.startsWith(root.resolve("docs").resolve("target")))
				.sorted()
				.forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	static List<String> lines(Path page) {
		try {
			return Files.readAllLines(page);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The page's path as the reader knows it, relative to the repository's root. */
	static String name(Path page) {
		return root().relativize(page.toAbsolutePath().normalize()).toString();
	}

}
