package dev.outboxstarter.modulith;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The switch that docs/migrating-from-spring-modulith.md gives is this module and the properties the
 * shop's tests run with.
 */
class MigrationGuideSwitchTests {

	@Test
	void theDocumentedDependencyIsThisModule() throws IOException {
		String pom = Files.readString(Path.of("pom.xml"));
		String parent = pom.substring(pom.indexOf("<parent>"), pom.indexOf("</parent>"));
		String project = pom.substring(pom.indexOf("</parent>"));
		assertThat(DocumentedSwitch.dependency("groupId")).isEqualTo(element(parent, "groupId"));
		assertThat(DocumentedSwitch.dependency("artifactId")).isEqualTo(element(project, "artifactId"));
		assertThat(DocumentedSwitch.dependency("version")).isEqualTo(element(parent, "version"));
	}

	private static String element(String xml, String name) {
		int start = xml.indexOf("<" + name + ">") + name.length() + 2;
		return xml.substring(start, xml.indexOf("</" + name + ">", start));
	}

	@Test
	void theShopRunsOnTheDocumentedPropertiesAsTheyAreWritten() throws IOException {
		Properties shop = new Properties();
		try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
			shop.load(in);
		}
		String[] documented = DocumentedSwitch.properties();
		assertThat(documented).isNotEmpty();
		for (String line : documented) {
			String[] property = line.split("=", 2);
			assertThat(shop.getProperty(property[0].trim())).as(property[0]).isEqualTo(property[1].trim());
		}
	}

}
