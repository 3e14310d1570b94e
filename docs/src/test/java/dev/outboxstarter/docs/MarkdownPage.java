package dev.outboxstarter.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * One Markdown page as GitHub renders it, as far as the documentation checks need: its headings'
 * anchors, its links and its fenced code blocks, each with its line number.
 */
final class MarkdownPage {

	private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+-]*).*$");

	/** Says that the code block below it is a copy of a compiled file, relative to the page. */
	private static final Pattern SNIPPET_SOURCE = Pattern.compile("^\\s*<!--\\s*snippet:\\s*(\\S+)\\s*-->\\s*$");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

	private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");

	private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?.*$");

	private final Path path;

	private final List<String> lines;

	MarkdownPage(Path path) {
		this.path = path;
		this.lines = DocumentationPages.lines(path);
	}

	Path path() {
		return this.path;
	}

	String name() {
		return DocumentationPages.name(this.path);
	}

	/** The anchors GitHub gives the page's headings, plus explicit {@code <a name/id>} anchors. */
	Set<String> anchors() {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		forEachLineOutsideCode((number, line) -> {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(1));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
			Matcher html = HTML_ANCHOR.matcher(line);
			while (html.find()) {
				anchors.add(html.group(1));
			}
		});
		return anchors;
	}

	/** Every link target outside code: inline links, images and reference definitions. */
	List<Link> links() {
		List<Link> links = new ArrayList<>();
		forEachLineOutsideCode((number, line) -> {
			String text = CODE_SPAN.matcher(line).replaceAll("");
			Matcher inline = INLINE_LINK.matcher(text);
			while (inline.find()) {
				links.add(new Link(number, inline.group(2)));
			}
			Matcher definition = REFERENCE_DEFINITION.matcher(text);
			if (definition.matches()) {
				links.add(new Link(number, definition.group(1)));
			}
		});
		return links;
	}

	/** The fenced code blocks in the given language, each with the line of its opening fence. */
	List<CodeBlock> codeBlocks(String language) {
		List<CodeBlock> blocks = new ArrayList<>();
		String fence = null;
		String blockLanguage = null;
		int indent = 0;
		int start = 0;
		Path source = null;
		StringBuilder code = new StringBuilder();
		for (int i = 0; i < this.lines.size(); i++) {
			String line = this.lines.get(i);
			Matcher matcher = FENCE.matcher(line);
			if (fence == null && matcher.matches()) {
				fence = matcher.group(1);
				blockLanguage = matcher.group(2);
				indent = line.indexOf(fence);
				start = i + 1;
				Matcher sourceMarker = (i > 0) ? SNIPPET_SOURCE.matcher(this.lines.get(i - 1)) : null;
				source = (sourceMarker != null && sourceMarker.matches())
						? this.path.resolveSibling(sourceMarker.group(1)).normalize() : null;
				code.setLength(0);
			}
			else if (fence != null && line.strip().startsWith(fence) && line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
				if (language.equals(blockLanguage)) {
					blocks.add(new CodeBlock(start, code.toString(), source));
				}
				fence = null;
			}
			else if (fence != null) {
				int strip = 0;
				while (strip < indent && strip < line.length() && line.charAt(strip) == ' ') {
					strip++;
				}
				code.append(line.substring(strip)).append('\n');
			}
		}
		return blocks;
	}

	private void forEachLineOutsideCode(LineConsumer consumer) {
		String fence = null;
		for (int i = 0; i < this.lines.size(); i++) {
			String line = this.lines.get(i);
			Matcher matcher = FENCE.matcher(line);
			if (fence == null && matcher.matches()) {
				fence = matcher.group(1);
			}
			else if (fence != null && line.strip().startsWith(fence) && line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
				fence = null;
			}
			else if (fence == null) {
				consumer.accept(i + 1, line);
			}
		}
	}

	/**
	 * GitHub's anchor for a heading: the rendered text in lower case, without punctuation other than
	 * hyphens and underscores, each space a hyphen.
	 */
	static String slug(String heading) {
		String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
		StringBuilder slug = new StringBuilder();
		text.toLowerCase(java.util.Locale.ROOT).codePoints().forEach((c) -> {
			if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
				slug.appendCodePoint(c);
			}
			else if (c == ' ') {
				slug.append('-');
			}
		});
		return slug.toString();
	}

	record Link(int line, String target) {
	}

	/**
	 * A fenced code block.
	 * @param line the line of its opening fence
	 * @param code its content
	 * @param source the compiled file it is a copy of, named by a {@code <!-- snippet: path -->} line
	 * right above it, or {@code null}
	 */
	record CodeBlock(int line, String code, @Nullable Path source) {
	}

	@FunctionalInterface
	private interface LineConsumer {

		void accept(int number, String line);

	}

}
