package dev.outboxstarter.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link in {@code README.md} and {@code docs/**}{@code /*.md} leads somewhere: its file
 * exists, and its anchor, if any, is a heading of the page it points to (as GitHub names anchors).
 */
class RelativeLinksTests {

	private static final Pattern ABSOLUTE = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	@Test
	void everyRelativeLinkAndAnchorResolves() {
		List<String> broken = new ArrayList<>();
		List<Path> pages = DocumentationPages.all();
		assertThat(pages).hasSizeGreaterThan(1);
		for (Path path : pages) {
			MarkdownPage page = new MarkdownPage(path);
			for (MarkdownPage.Link link : page.links()) {
				String problem = problem(page, link.target());
				if (problem != null) {
					broken.add(page.name() + ":" + link.line() + ": (" + link.target() + ") " + problem);
				}
			}
		}
		assertThat(broken).as("Broken links; fix the link or the heading it points to:%n  %s", String.join("\n  ", broken))
			.isEmpty();
	}

	@Test
	void anchorsAreNamedAsGitHubNamesThem() {
		assertThat(MarkdownPage.slug("The `outbox` endpoint")).isEqualTo("the-outbox-endpoint");
		assertThat(MarkdownPage.slug("What is refused, and what happens")).isEqualTo("what-is-refused-and-what-happens");
		assertThat(MarkdownPage.slug("Choosing `ordering`")).isEqualTo("choosing-ordering");
		assertThat(MarkdownPage.slug("Kafka: `max.block.ms` and [acks](x.md)")).isEqualTo("kafka-maxblockms-and-acks");
	}

	private String problem(MarkdownPage page, String target) {
		if (target.isEmpty()) {
			return "is empty";
		}
		if (ABSOLUTE.matcher(target).matches() || target.startsWith("//")) {
			return null;
		}
		int hash = target.indexOf('#');
		String file = (hash >= 0) ? target.substring(0, hash) : target;
		String anchor = (hash >= 0) ? target.substring(hash + 1) : null;
		Path resolved = file.isEmpty() ? page.path() : page.path().getParent().resolve(file).normalize();
		if (!Files.exists(resolved)) {
			return "points to " + DocumentationPages.name(resolved) + ", which does not exist";
		}
		if (anchor == null || !resolved.toString().endsWith(".md")) {
			return null;
		}
		Set<String> known = this.anchors.computeIfAbsent(resolved, (md) -> new MarkdownPage(md).anchors());
		if (!known.contains(anchor)) {
			return "names the anchor #" + anchor + ", but no heading of " + DocumentationPages.name(resolved)
					+ " has it (its anchors: " + String.join(", ", known) + ")";
		}
		return null;
	}

}
