package dev.outboxstarter.schemaregistry;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.OutboxConfigurationException;
import io.apicurio.registry.resolver.SchemaResolverConfig;
import io.apicurio.registry.serde.Legacy4ByteIdHandler;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.config.IdOption;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The schema registry that Avro and Protobuf payloads are written against. An event is serialized when
 * it is captured, under the subject its destination names: {@code <topic>-value} for a Kafka topic (the
 * registry's and Confluent's topic naming), and for a RabbitMQ {@code exchange/routing-key} the
 * destination with each {@code '/'} turned into {@code '.'}, then {@code -value}
 * ({@code orders/order.placed} is {@code orders.order.placed-value}), since a registry's subjects appear
 * in its URLs and cannot hold a {@code '/'}.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("outbox.schema-registry")
public class SchemaRegistryProperties {

	private static final String PREFIX = "outbox.schema-registry.";

	private static final String API_PATH = "/apis/registry/v2";

	/**
	 * Serializer settings this module sets itself, and how to change them.
	 */
	private static final Map<String, String> OWNED_SETTINGS = Map.of(SerdeConfig.REGISTRY_URL,
			"set " + PREFIX + "url instead", SerdeConfig.AUTO_REGISTER_ARTIFACT, "set " + PREFIX + "auto-register instead",
			SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, "set " + PREFIX + "wire-format instead", SerdeConfig.USE_ID,
			"set " + PREFIX + "wire-format instead", SerdeConfig.ID_HANDLER, "set " + PREFIX + "wire-format instead",
			SerdeConfig.ENABLE_HEADERS, "the id is always written in the payload, which every broker carries",
			SerdeConfig.ARTIFACT_RESOLVER_STRATEGY, "subjects are named after the event's destination");

	/**
	 * How long a registry's answer is trusted: the id a registry gives a schema's content never changes,
	 * so a day, and an expired one is kept when the registry cannot be reached to confirm it.
	 */
	private static final Duration CACHE_LIFETIME = Duration.ofDays(1);

	/**
	 * URL of the schema registry's API, Apicurio Registry's version 2 API, such as
	 * 'http://registry:8080/apis/registry/v2'; the registry's base URL works as well.
	 */
	private final String url;

	/**
	 * How a payload names its schema: 'confluent' (a zero byte, then the 4-byte content id that the
	 * registry's Confluent-compatible API gives the schema) or 'apicurio' (a zero byte, then Apicurio
	 * Registry's 8-byte global id). Consumers configure their deserializer for the same format.
	 */
	private final WireFormat wireFormat;

	/**
	 * Whether the schema of an event is registered when the registry does not have it yet, as a new
	 * version of its subject when the subject's rules accept it. When false, the schema must already be
	 * registered under the subject, and an event whose schema is not is refused.
	 */
	private final boolean autoRegister;

	/**
	 * How long capturing an event may wait for the registry, when the event's schema is not cached yet
	 * (its first event since start-up): past it, the event is refused and its business transaction does
	 * not commit. Events of cached schemas do not wait for the registry, even when it is down.
	 */
	private final Duration requestTimeout;

	/**
	 * More settings of Apicurio's serializers and registry client, passed as they are, such as
	 * 'apicurio.auth.username' or 'apicurio.registry.request.ssl.truststore.location'. Those that this
	 * module's own properties set are refused.
	 */
	private final Map<String, String> properties;

	/**
	 * Binds the properties.
	 * @param url URL of the registry's API
	 * @param wireFormat how a payload names its schema
	 * @param autoRegister whether schemas are registered when the registry does not have them
	 * @param requestTimeout how long capturing an event may wait for the registry
	 * @param properties more settings of the serializers, passed as they are
	 */
	public SchemaRegistryProperties(String url, @DefaultValue("confluent") WireFormat wireFormat,
			@DefaultValue("true") boolean autoRegister, @DefaultValue("5s") Duration requestTimeout,
			@Nullable Map<String, String> properties) {
		this.url = checkUrl(url);
		this.wireFormat = wireFormat;
		this.autoRegister = autoRegister;
		if (requestTimeout.isNegative() || requestTimeout.isZero()) {
			throw new OutboxConfigurationException(
					PREFIX + "request-timeout: " + requestTimeout + " is not a positive duration",
					"Set " + PREFIX + "request-timeout to how long capturing an event may wait for the registry, e.g. 5s");
		}
		this.requestTimeout = requestTimeout;
		this.properties = (properties != null) ? Map.copyOf(properties) : Map.of();
		this.properties.keySet().forEach(SchemaRegistryProperties::checkNotOwned);
	}

	private static String checkUrl(@Nullable String url) {
		String action = "Set " + PREFIX + "url to the registry's API, e.g. http://registry:8080" + API_PATH;
		if (url == null || url.isBlank()) {
			throw new OutboxConfigurationException(PREFIX + "url is empty", action);
		}
		URI uri;
		try {
			uri = URI.create(url.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new OutboxConfigurationException(PREFIX + "url '" + url + "' is not a URL", action);
		}
		if (!List.of("http", "https").contains(uri.getScheme()) || uri.getHost() == null) {
			throw new OutboxConfigurationException(PREFIX + "url '" + url + "' is not an http or https URL", action);
		}
		return url.strip();
	}

	private static void checkNotOwned(String setting) {
		String instead = OWNED_SETTINGS.get(setting);
		if (instead != null) {
			throw new OutboxConfigurationException(
					PREFIX + "properties sets '" + setting + "', which this module sets itself",
					"Remove '" + setting + "' from " + PREFIX + "properties: " + instead);
		}
	}

	public String getUrl() {
		return this.url;
	}

	public WireFormat getWireFormat() {
		return this.wireFormat;
	}

	public boolean isAutoRegister() {
		return this.autoRegister;
	}

	public Duration getRequestTimeout() {
		return this.requestTimeout;
	}

	public Map<String, String> getProperties() {
		return this.properties;
	}

	/**
	 * The URL of the registry's version 2 API, which the URLs of registered schemas start with.
	 * @return the API's URL, without a trailing {@code '/'}
	 */
	String apiUrl() {
		String base = this.url.endsWith("/") ? this.url.substring(0, this.url.length() - 1) : this.url;
		return base.endsWith(API_PATH) ? base : base + API_PATH;
	}

	/**
	 * The settings of Apicurio's serializers: the registry's id in the payload, never in headers, since
	 * the bytes are also published to brokers that have no Kafka headers; schemas kept once served, and
	 * kept when the registry cannot be reached to refresh them.
	 * @return the settings
	 */
	Map<String, Object> serdeSettings() {
		Map<String, Object> settings = new HashMap<>();
		settings.put(SerdeConfig.AUTO_REGISTER_ARTIFACT_IF_EXISTS, "RETURN_OR_UPDATE");
		settings.put(SchemaResolverConfig.FAULT_TOLERANT_REFRESH, true);
		settings.put(SerdeConfig.CHECK_PERIOD_MS, CACHE_LIFETIME.toMillis());
		settings.putAll(this.properties);
		settings.put(SerdeConfig.REGISTRY_URL, apiUrl());
		settings.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, this.autoRegister);
		settings.put(SerdeConfig.ENABLE_HEADERS, false);
		if (this.wireFormat == WireFormat.CONFLUENT) {
			settings.put(SerdeConfig.ID_HANDLER, Legacy4ByteIdHandler.class.getName());
			settings.put(SerdeConfig.USE_ID, IdOption.contentId.name());
		}
		else {
			settings.put(SerdeConfig.USE_ID, IdOption.globalId.name());
		}
		return settings;
	}

}
