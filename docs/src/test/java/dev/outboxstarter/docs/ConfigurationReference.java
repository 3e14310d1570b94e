package dev.outboxstarter.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The table of {@code docs/configuration.md}: one row per {@code outbox.*} and
 * {@code management.endpoint.outbox.*} property of the configuration metadata on the classpath (the
 * autoconfigure module's generated {@code META-INF/spring-configuration-metadata.json}, which includes
 * any additional metadata), with its type, default and description.
 */
final class ConfigurationReference {

	static final String HEADER = "| property | type | default | description |\n|---|---|---|---|\n";

	private ConfigurationReference() {
	}

	/** The table's rows by property name, in the order the page lists them. */
	static Map<String, String> rows() {
		Map<String, JsonNode> properties = new TreeMap<>(ConfigurationReference::pageOrder);
		try {
			for (URL resource : Collections.list(ConfigurationReference.class.getClassLoader()
				.getResources("META-INF/spring-configuration-metadata.json"))) {
				try (InputStream in = resource.openStream()) {
					JsonMapper.builder().build().readTree(in).path("properties").valueStream()
						.filter((property) -> isOutboxProperty(property.path("name").asString()))
						.forEach((property) -> properties.putIfAbsent(property.path("name").asString(), property));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Map<String, String> rows = new LinkedHashMap<>();
		properties.forEach((name, property) -> rows.put(name, row(property)));
		return rows;
	}

	static String table() {
		return HEADER + String.join("\n", rows().values()) + "\n";
	}

	private static boolean isOutboxProperty(String name) {
		return name.startsWith("outbox.") || name.startsWith("management.endpoint.outbox.");
	}

	private static int pageOrder(String first, String second) {
		boolean firstManagement = first.startsWith("management.");
		boolean secondManagement = second.startsWith("management.");
		return (firstManagement != secondManagement) ? Boolean.compare(firstManagement, secondManagement)
				: first.compareTo(second);
	}

	private static String row(JsonNode property) {
		String type = property.path("type").asString("");
		Class<?> enumType = enumType(type);
		String typeCell = (enumType != null) ? "one of " + Arrays.stream(enumType.getEnumConstants())
			.map((constant) -> code(enumValue(((Enum<?>) constant).name())))
			.collect(Collectors.joining(", ")) : code(simpleTypeName(type));
		JsonNode defaultValue = property.get("defaultValue");
		String defaultCell = "";
		if (defaultValue != null && !defaultValue.isNull()) {
			String value = defaultValue.isValueNode() ? defaultValue.asString() : defaultValue.toString();
			defaultCell = code((enumType != null) ? enumValue(value) : value);
		}
		String description = property.path("description").asString("").replaceAll("\\s+", " ").strip();
		return "| " + code(property.path("name").asString()) + " | " + typeCell + " | " + defaultCell + " | "
				+ description.replace("|", "\\|") + " |";
	}

	private static Class<?> enumType(String type) {
		if (type.isEmpty() || type.contains("<")) {
			return null;
		}
		try {
			Class<?> candidate = Class.forName(type, false, ConfigurationReference.class.getClassLoader());
			return candidate.isEnum() ? candidate : null;
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

	private static String enumValue(String name) {
		return name.toLowerCase(Locale.ROOT).replace('_', '-');
	}

	private static String simpleTypeName(String type) {
		return type.replaceAll("(?:[a-z_][a-z0-9_]*\\.)+", "")
			.replaceAll("\\w+\\$", "")
			.replace(",", ", ");
	}

	private static String code(String text) {
		return "`" + text.replace("|", "\\|") + "`";
	}

}
