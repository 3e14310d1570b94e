package dev.outboxstarter.docs;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every {@code ```java} block of {@code README.md} and {@code docs/**}{@code /*.md} is a complete
 * compilation unit, imports included, that compiles as shown against the starter and what the docs
 * add next to it (this module's test classpath), so a reader can copy it. A block marked
 * {@code <!-- snippet: path -->} is instead a copy of that file, compiled and run by its own module
 * (the sample's tests, say), and must be the same, word for word.
 */
class JavaSnippetsTests {

	private static final Pattern TOP_LEVEL_TYPE = Pattern.compile(
			"^(?:public\\s+)(?:(?:final|abstract|sealed|non-sealed|static)\\s+)*(?:class|interface|enum|record|@interface)\\s+(\\w+)",
			Pattern.MULTILINE);

	private static final Pattern ANY_TOP_LEVEL_TYPE = Pattern.compile(
			"^(?:@\\w+(?:\\([^)]*\\))?\\s+)*(?:(?:public|final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|enum|record|@interface)\\s+(\\w+)",
			Pattern.MULTILINE);

	private static final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();

	private static StandardJavaFileManager fileManager;

	@TempDir
	static Path output;

	@BeforeAll
	static void openFileManager() {
		fileManager = compiler.getStandardFileManager(null, Locale.ROOT, null);
	}

	@AfterAll
	static void closeFileManager() throws IOException {
		fileManager.close();
	}

	@TestFactory
	Stream<DynamicTest> everyJavaSnippetCompilesAsShown() {
		List<DynamicTest> tests = new ArrayList<>();
		for (Path path : DocumentationPages.all()) {
			MarkdownPage page = new MarkdownPage(path);
			for (MarkdownPage.CodeBlock block : page.codeBlocks("java")) {
				String where = page.name() + ":" + block.line();
				Path source = block.source();
				tests.add(DynamicTest.dynamicTest(where, (source != null) ? () -> assertCopyOf(where, block.code(), source)
						: () -> assertCompiles(where, block.code())));
			}
		}
		assertThat(tests).as("Java snippets in the documentation").isNotEmpty();
		return tests.stream();
	}

	@Test
	void snippetWithoutItsImportsIsReported() {
		String snippet = """
				package com.example;

				@OutboxEvent(destination = "orders")
				public record OrderPlaced(long orderId) {
				}
				""";
		assertThat(compile(snippet)).anyMatch((error) -> error.contains("OutboxEvent"));
	}

	@Test
	void completeSnippetCompilesAgainstTheStarter() {
		String snippet = """
				package com.example;

				import dev.outboxstarter.OutboxEvent;

				@OutboxEvent(destination = "orders")
				public record OrderPlaced(long orderId) {
				}
				""";
		assertThat(compile(snippet)).isEmpty();
	}

	@Test
	void copyThatNoLongerMatchesItsFileIsReported() throws IOException {
		Path file = Files.writeString(output.resolve("Copied.java"), "class Copied {\n}\n");
		assertCopyOf("a page", "class Copied {\n}\n", file);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertCopyOf("a page", "class Copied {\n\tint changed;\n}\n", file))
			.withMessageContaining("copy the file again");
	}

	private static void assertCopyOf(String where, String code, Path source) throws IOException {
		assertThat(source).as("The file the snippet at %s is a copy of", where).isRegularFile();
		assertThat(code).as("The snippet at %s, a copy of %s: copy the file again", where, source)
			.isEqualTo(Files.readString(source));
	}

	private static void assertCompiles(String where, String code) {
		List<String> errors = compile(code);
		if (!errors.isEmpty()) {
			fail("The Java snippet at %s does not compile as shown; a snippet must be a complete compilation unit "
					+ "(package, imports, types) that compiles against the docs module's test classpath:%n  %s%n%s",
					where, String.join("\n  ", errors), code);
		}
	}

	private static List<String> compile(String code) {
		Matcher publicType = TOP_LEVEL_TYPE.matcher(code);
		Matcher anyType = ANY_TOP_LEVEL_TYPE.matcher(code);
		String typeName = publicType.find() ? publicType.group(1) : anyType.find() ? anyType.group(1) : null;
		if (typeName == null) {
			return List.of("it declares no top-level type: wrap the code in a class, with its package and imports");
		}
		JavaFileObject source = new SimpleJavaFileObject(URI.create("string:///" + typeName + ".java"),
				JavaFileObject.Kind.SOURCE) {

			@Override
			public CharSequence getCharContent(boolean ignoreEncodingErrors) {
				return code;
			}

		};
		Path classes;
		try {
			classes = Files.createTempDirectory(output, typeName);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		List<String> options = List.of("-classpath", classpath(), "-d", classes.toString(), "-proc:none",
				"-parameters", "--release", "17");
		boolean compiled = compiler.getTask(new StringWriter(), fileManager, diagnostics, options, null, List.of(source))
			.call();
		List<String> errors = diagnostics.getDiagnostics().stream()
			.filter((diagnostic) -> diagnostic.getKind() == Diagnostic.Kind.ERROR)
			.map((diagnostic) -> "line " + diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT))
			.collect(Collectors.toList());
		if (!compiled && errors.isEmpty()) {
			errors.add("javac failed without an error message");
		}
		return errors;
	}

	private static String classpath() {
		String surefire = System.getProperty("surefire.test.class.path");
		return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path", "")
			.replace(File.pathSeparator + File.pathSeparator, File.pathSeparator);
	}

}
