package dev.outboxstarter.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Class paths for the JVM processes that tests start (brokers, application instances). The test class
 * path is Surefire's when it runs the tests through a manifest-only jar. Its directories
 * ({@code target/classes}, {@code target/test-classes}) are copied once, so that a process started
 * later in a long test still finds its classes when a concurrent build of the module recompiles them.
 */
public final class FaultClassPath {

	private static String snapshot;

	private FaultClassPath() {
	}

	/**
	 * The test class path.
	 * @return the class path as the tests see it
	 */
	public static String test() {
		return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
	}

	/**
	 * The jars of the test class path, without its directories.
	 * @return the class path
	 */
	public static String jars() {
		return entries().stream().filter((entry) -> !new File(entry).isDirectory()).collect(joining());
	}

	/**
	 * The test class path, its directories replaced by copies taken on first use.
	 * @return the class path
	 */
	public static synchronized String snapshot() {
		if (snapshot == null) {
			try {
				Path root = Files.createTempDirectory("fault-classpath");
				Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root), "fault-classpath-cleanup"));
				List<String> copied = new ArrayList<>();
				int index = 0;
				for (String entry : entries()) {
					Path source = Path.of(entry);
					if (Files.isDirectory(source)) {
						Path target = root.resolve(String.valueOf(index++));
						copy(source, target);
						copied.add(target.toString());
					}
					else {
						copied.add(entry);
					}
				}
				snapshot = copied.stream().collect(joining());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return snapshot;
	}

	/**
	 * The {@code java} executable of this JVM.
	 * @return its path
	 */
	public static String javaCommand() {
		return ProcessHandle.current()
			.info()
			.command()
			.orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
	}

	private static List<String> entries() {
		return Arrays.stream(test().split(File.pathSeparator)).filter((entry) -> !entry.isBlank()).toList();
	}

	private static java.util.stream.Collector<CharSequence, ?, String> joining() {
		return Collectors.joining(File.pathSeparator);
	}

	private static void copy(Path source, Path target) throws IOException {
		try (Stream<Path> paths = Files.walk(source)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				Path destination = target.resolve(source.relativize(path).toString());
				if (Files.isDirectory(path)) {
					Files.createDirectories(destination);
				}
				else {
					Files.copy(path, destination, StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
	}

	private static void delete(Path root) {
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Left in the temporary directory.
		}
	}

}
