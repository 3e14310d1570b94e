package dev.outboxstarter.schemaregistry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.resolver.strategy.ArtifactReference;
import io.apicurio.registry.rest.client.RegistryClient;
import io.apicurio.registry.rest.client.RegistryClientFactory;
import io.apicurio.registry.rest.client.exception.ArtifactNotFoundException;
import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.registry.rest.client.exception.RuleNotFoundException;
import io.apicurio.registry.rest.client.exception.RuleViolationException;
import io.apicurio.registry.rest.client.exception.VersionNotFoundException;
import io.apicurio.registry.rest.v2.beans.Rule;
import io.apicurio.registry.serde.AbstractKafkaSerializer;
import io.apicurio.registry.types.RuleType;
import org.jspecify.annotations.Nullable;

/**
 * One of Apicurio's Kafka serializers, called so that capturing an event waits for the registry no
 * longer than the request timeout, and its failures turned into refusals that say what to do.
 * <p>
 * Apicurio's registry client (2.6) has no timeout of its own: its requests wait for as long as the
 * registry takes to answer. So each call runs on a thread of this serializer's and the caller waits for
 * it up to the timeout; a call still waiting then is left to finish (or fail) on its own thread, which
 * ends when the registry answers or drops the connection.
 *
 * @param <T> the events the serializer writes
 */
final class RegisteringSerializer<T> implements AutoCloseable {

	private final String format;

	private final String contentType;

	private final Function<RegistryClient, AbstractKafkaSerializer<?, T>> serializers;

	/** One client, and with it one HTTP client, for every subject's serializer and for reading rules. */
	private final RegistryClient client;

	/**
	 * A serializer for each topic: Apicurio's caches a schema by its content alone, and would not
	 * register a schema it has written to one subject under the next subject it is written to.
	 */
	private final Map<String, AbstractKafkaSerializer<?, T>> byTopic = new ConcurrentHashMap<>();

	private final SchemaRegistryProperties properties;

	private final ExecutorService calls;

	RegisteringSerializer(String format, String contentType,
			Function<RegistryClient, AbstractKafkaSerializer<?, T>> serializers, SchemaRegistryProperties properties) {
		this.format = format;
		this.contentType = contentType;
		this.serializers = serializers;
		this.properties = properties;
		this.client = RegistryClientFactory.create(properties.apiUrl(),
				new HashMap<String, Object>(properties.getProperties()));
		this.calls = Executors.newCachedThreadPool(daemonThreads("outbox-schema-registry-" + format + "-"));
	}

	/**
	 * The subject an event published to a destination is registered under.
	 * @param target where the event goes
	 * @return {@code <topic>-value}, or for a RabbitMQ {@code exchange/routing-key}
	 * {@code exchange.routing-key-value}
	 */
	static String subject(PayloadTarget target) {
		return topic(target) + "-value";
	}

	/**
	 * The name that Apicurio's topic naming strategy appends {@code -value} to.
	 */
	private static String topic(PayloadTarget target) {
		String name = target.destination().replace('/', '.');
		int start = 0;
		int end = name.length();
		while (start < end && name.charAt(start) == '.') {
			start++;
		}
		while (end > start && name.charAt(end - 1) == '.') {
			end--;
		}
		return (start < end) ? name.substring(start, end) : target.eventType();
	}

	SerializedPayload serialize(T event, PayloadTarget target) {
		String topic = topic(target);
		AbstractKafkaSerializer<?, T> serializer = this.byTopic.computeIfAbsent(topic, (name) -> {
			AbstractKafkaSerializer<?, T> created = this.serializers.apply(this.client);
			created.configure(this.properties.serdeSettings(), false);
			return created;
		});
		byte[] bytes = call(() -> serializer.serialize(topic, event), target, subject(target));
		return new SerializedPayload(bytes, this.contentType, schemaUri(serializer, bytes));
	}

	/**
	 * Reads a payload back with one of Apicurio's deserializers, configured as the serializers are.
	 * @param bytes the payload
	 * @param target where it was published
	 * @param deserializer reads the bytes of a topic
	 * @return the event
	 */
	Object deserialize(byte[] bytes, PayloadTarget target, BiFunction<String, byte[], Object> deserializer) {
		String subject = subject(target);
		try {
			return call(() -> deserializer.apply(topic(target), bytes), target, subject);
		}
		catch (SchemaRegistryException ex) {
			throw new SchemaRegistryException(ex.getMessage().replaceFirst("^Cannot write", "Cannot read"),
					ex.getCause());
		}
	}

	/**
	 * The settings of Apicurio's serializers and deserializers.
	 * @return a copy to add to
	 */
	Map<String, Object> settings() {
		return this.properties.serdeSettings();
	}

	/**
	 * The registry's URL of the schema a payload names, read with the serializer's own id handler.
	 */
	private String schemaUri(AbstractKafkaSerializer<?, T> serializer, byte[] bytes) {
		ByteBuffer buffer = ByteBuffer.wrap(bytes);
		buffer.get();
		ArtifactReference reference = serializer.getIdHandler().readId(buffer);
		if (reference.getContentId() != null) {
			return this.properties.apiUrl() + "/ids/contentIds/" + reference.getContentId();
		}
		return this.properties.apiUrl() + "/ids/globalIds/" + reference.getGlobalId();
	}

	private <R> R call(Callable<R> work, PayloadTarget target, String subject) {
		Duration timeout = this.properties.getRequestTimeout();
		Future<R> call = this.calls.submit(work);
		try {
			return call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			call.cancel(true);
			throw new SchemaRegistryException(describe(target, subject) + ": the schema registry at "
					+ this.properties.getUrl() + " did not answer within " + timeout
					+ " (outbox.schema-registry.request-timeout), and the schema is not cached yet. The event is "
					+ "refused and its transaction does not commit; retry once the registry answers, or allow it "
					+ "longer with outbox.schema-registry.request-timeout", ex);
		}
		catch (InterruptedException ex) {
			call.cancel(true);
			Thread.currentThread().interrupt();
			throw new SchemaRegistryException(describe(target, subject)
					+ ": interrupted while waiting for the schema registry at " + this.properties.getUrl(), ex);
		}
		catch (ExecutionException ex) {
			throw refusal(ex.getCause(), target, subject);
		}
	}

	private SchemaRegistryException refusal(Throwable failure, PayloadTarget target, String subject) {
		String event = describe(target, subject);
		RuleViolationException violation = find(failure, RuleViolationException.class);
		if (violation != null) {
			RuleType type = violation.getMessage() != null && violation.getMessage().startsWith("Incompatible")
					? RuleType.COMPATIBILITY : RuleType.VALIDITY;
			return new SchemaRegistryException(event + ": the schema registry refused its schema under the rule "
					+ rule(type, subject, target) + " (" + violation.getMessage() + "). "
					+ ((type == RuleType.COMPATIBILITY)
							? "Change the schema so that it is compatible with the subject's registered versions "
									+ "under that rule (under BACKWARD, e.g. give a new field a default and remove "
									+ "only fields that have one), or publish it under a new subject (a new topic)"
							: "Fix the schema so that the registry accepts it")
					+ "; the event is refused and its transaction does not commit", failure);
		}
		if (find(failure, ArtifactNotFoundException.class) != null
				|| find(failure, VersionNotFoundException.class) != null) {
			return new SchemaRegistryException(event + ": its schema is not registered under subject '" + subject
					+ "' in the schema registry at " + this.properties.getUrl()
					+ ", and outbox.schema-registry.auto-register is false. Register the schema under that subject "
					+ "first, or set outbox.schema-registry.auto-register=true", failure);
		}
		RestClientException clientFailure = find(failure, RestClientException.class);
		// Apicurio's client reports a request that got no answer at all as an error without a status.
		boolean unanswered = (clientFailure != null && clientFailure.getError() != null
				&& clientFailure.getError().getErrorCode() == null);
		if (unanswered || find(failure, IOException.class) != null) {
			return new SchemaRegistryException(event + ": the schema registry at " + this.properties.getUrl()
					+ " cannot be reached (" + reason(failure) + "), and the schema is not cached yet. The event "
					+ "is refused and its transaction does not commit; retry once the registry answers", failure);
		}
		return new SchemaRegistryException(event + ": " + reason(failure), failure);
	}

	/**
	 * What went wrong, in the registry's words when it answered.
	 */
	private static String reason(Throwable failure) {
		RestClientException clientFailure = find(failure, RestClientException.class);
		if (clientFailure != null && clientFailure.getError() != null) {
			io.apicurio.registry.rest.v2.beans.Error error = clientFailure.getError();
			String status = (error.getErrorCode() != null) ? " (HTTP " + error.getErrorCode() + ")" : "";
			return error.getName() + status + ((error.getMessage() != null) ? ": " + error.getMessage() : "");
		}
		return rootMessage(failure);
	}

	/**
	 * The subject's rule of a type as {@code TYPE=config}: the subject's own, else the registry's global
	 * one, read when the refusal does not say it.
	 */
	private String rule(RuleType type, String subject, PayloadTarget target) {
		try {
			return type + "=" + call(() -> ruleConfig(type, subject), target, subject);
		}
		catch (SchemaRegistryException ex) {
			return type + " (its setting could not be read: " + ex.getMessage() + ")";
		}
	}

	private String ruleConfig(RuleType type, String subject) {
		RegistryClient client = this.client;
		Rule rule;
		try {
			rule = client.getArtifactRuleConfig(null, subject, type);
		}
		catch (RuleNotFoundException | ArtifactNotFoundException ex) {
			rule = client.getGlobalRuleConfig(type);
		}
		return rule.getConfig();
	}

	private String describe(PayloadTarget target, String subject) {
		return "Cannot write event '" + target.eventType() + "' to " + target.transport() + " destination '"
				+ target.destination() + "' as " + this.format.toUpperCase(Locale.ROOT) + " (subject '" + subject
				+ "')";
	}

	private static <E extends Throwable> @Nullable E find(@Nullable Throwable failure, Class<E> type) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
			if (candidate.getCause() == candidate) {
				break;
			}
		}
		return null;
	}

	private static String rootMessage(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return (root.getMessage() != null) ? root.getClass().getSimpleName() + ": " + root.getMessage()
				: root.getClass().getSimpleName();
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	@Override
	public void close() {
		this.calls.shutdownNow();
		this.byTopic.values().forEach(AbstractKafkaSerializer::close);
		try {
			this.client.close();
		}
		catch (IOException ex) {
			// Closing at shutdown: nothing is left to do with a client that would not close.
		}
	}

}
