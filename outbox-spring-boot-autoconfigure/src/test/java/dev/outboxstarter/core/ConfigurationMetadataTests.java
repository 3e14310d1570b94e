package dev.outboxstarter.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code outbox.*} and {@code management.endpoint.outbox.*} property is documented where users
 * look: in the generated configuration metadata (IDE completion) with a description. The docs module's
 * {@code ConfigurationReferenceTests} checks that {@code docs/configuration.md} lists the same.
 */
class ConfigurationMetadataTests {

	@Test
	void everyPropertyHasADescriptionInTheMetadata() throws IOException {
		JsonNode metadata;
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			metadata = JsonMapper.builder().build().readTree(in);
		}
		List<JsonNode> properties = metadata.get("properties")
			.valueStream()
			.filter((property) -> property.get("name").asString().startsWith("outbox.")
					|| property.get("name").asString().startsWith("management.endpoint.outbox."))
			.toList();
		assertThat(properties).hasSizeGreaterThan(30);
		assertThat(properties).allSatisfy((property) -> {
			String name = property.get("name").asString();
			assertThat(property.path("description").asString()).as("description of %s", name).isNotBlank();
		});
	}

}
