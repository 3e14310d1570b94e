package dev.outboxstarter.schemaregistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import io.apicurio.registry.serde.SerdeConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tests read from a registry through its APIs, and how its consumers configure Apicurio's
 * deserializers: no outbox code.
 */
final class RegistryApis {

	private static final HttpClient http = HttpClient.newHttpClient();

	private static final ObjectMapper json = new ObjectMapper();

	private RegistryApis() {
	}

	/**
	 * The settings of a consumer's deserializer that reads a wire format.
	 */
	static Map<String, Object> consumerSettings(SchemaRegistryProcess registry, WireFormat wireFormat) {
		Map<String, Object> settings = new HashMap<>();
		settings.put(SerdeConfig.REGISTRY_URL, registry.registryApiUrl());
		settings.put(SerdeConfig.ENABLE_HEADERS, false);
		if (wireFormat == WireFormat.CONFLUENT) {
			settings.put(SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, true);
			settings.put(SerdeConfig.USE_ID, "contentId");
		}
		return settings;
	}

	static String get(String url) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url)).GET().build());
		assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
		return response.body();
	}

	static JsonNode getJson(String url) {
		try {
			return json.readTree(get(url));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sets a subject's compatibility rule through the Confluent-compatible API, as a team's tooling would.
	 */
	static void putCompatibility(SchemaRegistryProcess registry, String subject, String level) {
		HttpResponse<String> response = send(
				HttpRequest.newBuilder(URI.create(registry.confluentCompatibleApiUrl() + "/config/" + subject))
					.header("Content-Type", "application/vnd.schemaregistry.v1+json")
					.PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\": \"" + level + "\"}"))
					.build());
		assertThat(response.statusCode()).as("PUT config of %s: %s", subject, response.body()).isEqualTo(200);
	}

	private static HttpResponse<String> send(HttpRequest request) {
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
