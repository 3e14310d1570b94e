package dev.outboxstarter.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.internal.jdbc.TableName;
import dev.outboxstarter.internal.routing.RoutableTransports;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.StringUtils;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the transactional outbox.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("outbox")
public class OutboxProperties {

	/**
	 * Whether the outbox captures and publishes events.
	 */
	private final boolean enabled;

	/**
	 * Name of the outbox table, a plain SQL identifier. Its migrations are recorded in
	 * '<table-name>_schema_history' (Flyway) or '<table-name>_script_history' (scripts).
	 */
	private final String tableName;

	/**
	 * Largest serialized event accepted, in the bytes of its payload format. A larger event is refused
	 * when it is raised, which rolls the business transaction back. A payload in a format other than
	 * JSON is stored in Base64, a third larger than its bytes.
	 */
	private final DataSize maxPayloadSize;

	/**
	 * Transport of events whose route names none.
	 */
	private final String defaultTransport;

	/**
	 * How messages are laid out on the broker, for events whose route names no format: 'outbox' (the
	 * outbox's own headers) or 'cloudevents' (CloudEvents 1.0 in binary content mode).
	 */
	private final MessageFormat messageFormat;

	/**
	 * Format of the payloads of events whose route names none and whose type no payload serializer
	 * claims: 'json' (the application's JsonMapper), or the format name of an OutboxPayloadSerializer
	 * bean, such as 'avro' or 'protobuf' with the outbox-schema-registry module.
	 */
	private final String payloadFormat;

	/**
	 * Publishing order: 'per-key' publishes the events of one destination and message key in commit
	 * order; 'none' drops that guarantee for throughput.
	 */
	private final Ordering ordering;

	/**
	 * Whether a DEAD event keeps holding back the later events of its key (with 'per-key' ordering)
	 * until it is retried. Off: a DEAD event is set aside and its key moves on.
	 */
	private final boolean deadEventBlocksKey;

	/**
	 * Longest time to send one batch and await all its acknowledgements, its rows locked meanwhile.
	 * A message not acknowledged by then is still in flight: no attempt is counted, and this instance
	 * does not send it again before its outcome is known. The Kafka producer's max.block.ms and
	 * request.timeout.ms default to it, and its delivery.timeout.ms to twice it.
	 */
	private final Duration publishTimeout;

	/**
	 * How long shutdown waits for a batch that is being published.
	 */
	private final Duration shutdownTimeout;

	private final FastPath fastPath;

	private final Relay relay;

	private final Retry retry;

	private final Schema schema;

	private final Cleanup cleanup;

	private final Backlog backlog;

	private final CloudEvents cloudevents;

	/**
	 * Routes by fully qualified event class name, for event types that cannot be annotated with
	 * '@OutboxEvent' or to override the annotation.
	 */
	private final Map<String, Route> routes;

	/**
	 * The outboxes of data sources other than the primary one, by the data source's bean name. Every
	 * data source that a transaction manager of the context runs transactions on gets an outbox of its
	 * own, configured by the other 'outbox.*' properties; an entry sets 'enabled' (whether it has one)
	 * and 'table-name' (its table, by default 'outbox.table-name').
	 */
	private final Map<String, DataSourceOutbox> datasources;

	private final Tenants tenants;

	public OutboxProperties(@DefaultValue("true") boolean enabled, @DefaultValue("outbox_event") String tableName,
			@DefaultValue("1MB") DataSize maxPayloadSize, @DefaultValue(RoutableTransports.KAFKA) String defaultTransport,
			@DefaultValue("outbox") MessageFormat messageFormat, @DefaultValue("json") String payloadFormat,
			@DefaultValue("per-key") Ordering ordering,
			@DefaultValue("false") boolean deadEventBlocksKey, @DefaultValue("10s") Duration publishTimeout,
			@DefaultValue("10s") Duration shutdownTimeout, @DefaultValue FastPath fastPath, @DefaultValue Relay relay,
			@DefaultValue Retry retry, @DefaultValue Schema schema, @DefaultValue Cleanup cleanup,
			@DefaultValue Backlog backlog, @DefaultValue CloudEvents cloudevents, @Nullable Map<String, Route> routes,
			@Nullable Map<String, DataSourceOutbox> datasources, @DefaultValue Tenants tenants) {
		checkTableName(tableName, "outbox.table-name");
		check(maxPayloadSize.toBytes() > 0, "outbox.max-payload-size", maxPayloadSize, "it must be positive, e.g. 1MB");
		check(StringUtils.hasText(defaultTransport), "outbox.default-transport", defaultTransport,
				"it must name a transport, e.g. kafka");
		checkPositive(publishTimeout, "outbox.publish-timeout");
		checkPositive(shutdownTimeout, "outbox.shutdown-timeout");
		this.enabled = enabled;
		this.tableName = tableName;
		this.maxPayloadSize = maxPayloadSize;
		this.defaultTransport = defaultTransport;
		this.messageFormat = messageFormat;
		this.payloadFormat = payloadFormat;
		this.ordering = ordering;
		this.deadEventBlocksKey = deadEventBlocksKey;
		this.publishTimeout = publishTimeout;
		this.shutdownTimeout = shutdownTimeout;
		this.fastPath = fastPath;
		this.relay = relay;
		this.retry = retry;
		this.schema = schema;
		this.cleanup = cleanup;
		this.backlog = backlog;
		this.cloudevents = cloudevents;
		this.routes = (routes != null) ? Map.copyOf(routes) : Map.of();
		this.datasources = (datasources != null) ? Map.copyOf(datasources) : Map.of();
		this.tenants = tenants;
		this.datasources.forEach((name, outbox) -> {
			if (outbox.getTableName() != null) {
				checkTableName(outbox.getTableName(), "outbox.datasources." + name + ".table-name");
			}
		});
	}

	static void checkTableName(String tableName, String property) {
		try {
			TableName.check(tableName);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(property + ": " + ex.getMessage());
		}
	}

	/**
	 * Checks a duration the outbox waits or schedules by: at least a millisecond, the unit it is used
	 * in (a shorter one would be zero: a relay polling without pause, retries without backoff).
	 */
	static void checkPositive(Duration duration, String property) {
		check(duration.compareTo(Duration.ofMillis(1)) >= 0, property, duration, "it must be at least 1ms");
	}

	static void checkNotNegative(@Nullable Duration duration, String property) {
		check(duration == null || !duration.isNegative(), property, duration, "it must not be negative");
	}

	static void checkBetween(long value, long min, long max, String property) {
		check(value >= min && value <= max, property, value, "it must be between " + min + " and " + max);
	}

	/**
	 * Fails start-up when a value breaks its rule, with a message naming the property, its value and
	 * what it must be.
	 * @throws IllegalArgumentException when the value is invalid
	 */
	static void check(boolean valid, String property, @Nullable Object value, String rule) {
		if (!valid) {
			throw new IllegalArgumentException(property + "=" + format(value) + " is invalid: " + rule);
		}
	}

	private static String format(@Nullable Object value) {
		if (value instanceof Duration duration) {
			return duration.isZero() ? "0s" : DurationStyle.SIMPLE.print(duration, unitOf(duration));
		}
		return String.valueOf(value);
	}

	/** The largest unit that shows the duration exactly, as it was most likely written. */
	private static ChronoUnit unitOf(Duration duration) {
		for (ChronoUnit unit : List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES, ChronoUnit.SECONDS,
				ChronoUnit.MILLIS, ChronoUnit.MICROS)) {
			if (duration.toNanos() % unit.getDuration().toNanos() == 0) {
				return unit;
			}
		}
		return ChronoUnit.NANOS;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public String getTableName() {
		return this.tableName;
	}

	public DataSize getMaxPayloadSize() {
		return this.maxPayloadSize;
	}

	public String getDefaultTransport() {
		return this.defaultTransport;
	}

	public MessageFormat getMessageFormat() {
		return this.messageFormat;
	}

	public String getPayloadFormat() {
		return this.payloadFormat;
	}

	public Ordering getOrdering() {
		return this.ordering;
	}

	public boolean isDeadEventBlocksKey() {
		return this.deadEventBlocksKey;
	}

	public Duration getPublishTimeout() {
		return this.publishTimeout;
	}

	public Duration getShutdownTimeout() {
		return this.shutdownTimeout;
	}

	public FastPath getFastPath() {
		return this.fastPath;
	}

	public Relay getRelay() {
		return this.relay;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Schema getSchema() {
		return this.schema;
	}

	public Cleanup getCleanup() {
		return this.cleanup;
	}

	public Backlog getBacklog() {
		return this.backlog;
	}

	public CloudEvents getCloudevents() {
		return this.cloudevents;
	}

	public Map<String, Route> getRoutes() {
		return this.routes;
	}

	public Map<String, DataSourceOutbox> getDatasources() {
		return this.datasources;
	}

	public Tenants getTenants() {
		return this.tenants;
	}

	/**
	 * Publishing order.
	 */
	public enum Ordering {

		/** Events of one destination and message key are published in commit order. */
		PER_KEY,

		/** No ordering: every due event may be published at once. */
		NONE

	}

	/**
	 * Who publishes the captured events.
	 */
	public enum RelayMode {

		/** The instances publish: the fast path right after the commit, the polling relay what it left. */
		POLLING,

		/**
		 * Debezium on Kafka Connect publishes from the database log: each row is deleted in the
		 * transaction that inserts it, so only the log carries it.
		 */
		LOG;

		/**
		 * The mode as its property value, for metrics and health details.
		 * @return {@code polling} or {@code log}
		 */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * The fast path: publishing right after the commit, by the instance that wrote the events.
	 */
	public static class FastPath {

		/**
		 * Whether committed events are published at once. When off, the relay publishes everything.
		 */
		private final boolean enabled;

		/**
		 * How long the relay leaves a new event to the fast path of the instance that wrote it.
		 */
		private final Duration gracePeriod;

		/**
		 * Events the fast-path queues hold, shared evenly among the threads: at least one per thread, at
		 * most 1,000,000 (the queues are allocated up front). When an event's queue is full, it waits for
		 * the relay.
		 */
		private final int queueCapacity;

		/**
		 * Most events the fast path publishes in one batch.
		 */
		private final int batchSize;

		/**
		 * Threads publishing, each with a batch in flight and a database connection while it has one.
		 * More than one can shorten the delivery latency when the database and the broker have CPU to
		 * spare, at the cost of smaller batches; all the events of one message key go to the same thread.
		 */
		private final int threads;

		public FastPath(@DefaultValue("true") boolean enabled, @DefaultValue("5s") Duration gracePeriod,
				@DefaultValue("10000") int queueCapacity, @DefaultValue("500") int batchSize,
				@DefaultValue("1") int threads) {
			checkPositive(gracePeriod, "outbox.fast-path.grace-period");
			checkBetween(batchSize, 1, 5000, "outbox.fast-path.batch-size");
			checkBetween(threads, 1, 16, "outbox.fast-path.threads");
			// Each thread's queue, allocated up front, holds an equal share of the capacity.
			checkBetween(queueCapacity, threads, 1_000_000, "outbox.fast-path.queue-capacity");
			this.enabled = enabled;
			this.gracePeriod = gracePeriod;
			this.queueCapacity = queueCapacity;
			this.batchSize = batchSize;
			this.threads = threads;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public Duration getGracePeriod() {
			return this.gracePeriod;
		}

		public int getQueueCapacity() {
			return this.queueCapacity;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

		public int getThreads() {
			return this.threads;
		}

	}

	/**
	 * The relay: polls for due pending events on every instance.
	 */
	public static class Relay {

		/**
		 * Whether this instance runs the relay.
		 */
		private final boolean enabled;

		/**
		 * Pause between polls once no due events are left.
		 */
		private final Duration pollInterval;

		/**
		 * Most events claimed and published in one batch.
		 */
		private final int batchSize;

		/**
		 * Who publishes the captured events: 'polling' (the fast path and the polling relay of the
		 * instances) or 'log' (Debezium on Kafka Connect, reading the table's inserts from the database
		 * log; the instances then publish nothing and keep no rows). See docs/log-relay.md.
		 */
		private final RelayMode mode;

		public Relay(@DefaultValue("true") boolean enabled, @DefaultValue("1s") Duration pollInterval,
				@DefaultValue("500") int batchSize, @DefaultValue("polling") RelayMode mode) {
			checkPositive(pollInterval, "outbox.relay.poll-interval");
			checkBetween(batchSize, 1, 5000, "outbox.relay.batch-size");
			this.enabled = enabled;
			this.pollInterval = pollInterval;
			this.batchSize = batchSize;
			this.mode = mode;
		}

		public RelayMode getMode() {
			return this.mode;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

	}

	/**
	 * Retries of failed publishes: exponential backoff with jitter, then DEAD.
	 */
	public static class Retry {

		/**
		 * Delay before the second attempt.
		 */
		private final Duration initialDelay;

		/**
		 * Factor by which the delay grows with each further failure.
		 */
		private final double multiplier;

		/**
		 * Upper bound of the delay.
		 */
		private final Duration maxDelay;

		/**
		 * Fraction of the delay added or taken away at random, so retries of many events spread out: at
		 * least 0 and less than 1.
		 */
		private final double jitter;

		/**
		 * Attempts after which an event that fails for a reason of its own (e.g. unroutable, or a handler
		 * that throws) becomes DEAD and is no longer retried automatically. Attempts that fail because the
		 * broker is unreachable or does not acknowledge within the publish timeout never make an event DEAD.
		 */
		private final int maxAttempts;

		public Retry(@DefaultValue("1s") Duration initialDelay, @DefaultValue("2.0") double multiplier,
				@DefaultValue("5m") Duration maxDelay, @DefaultValue("0.2") double jitter,
				@DefaultValue("10") int maxAttempts) {
			checkPositive(initialDelay, "outbox.retry.initial-delay");
			check(multiplier >= 1 && Double.isFinite(multiplier), "outbox.retry.multiplier", multiplier,
					"it must be a finite number of at least 1 (1 retries at a constant delay)");
			checkPositive(maxDelay, "outbox.retry.max-delay");
			check(jitter >= 0 && jitter < 1, "outbox.retry.jitter", jitter,
					"it must be at least 0 and less than 1, a fraction of the delay (1 could make it zero)");
			check(maxAttempts >= 1, "outbox.retry.max-attempts", maxAttempts, "it must be at least 1");
			this.initialDelay = initialDelay;
			this.multiplier = multiplier;
			this.maxDelay = maxDelay;
			this.jitter = jitter;
			this.maxAttempts = maxAttempts;
		}

		public Duration getInitialDelay() {
			return this.initialDelay;
		}

		public double getMultiplier() {
			return this.multiplier;
		}

		public Duration getMaxDelay() {
			return this.maxDelay;
		}

		public double getJitter() {
			return this.jitter;
		}

		public int getMaxAttempts() {
			return this.maxAttempts;
		}

	}

	/**
	 * Deletion of rows that are no longer needed.
	 */
	public static class Cleanup {

		/**
		 * Whether this instance deletes expired rows. Safe on every instance.
		 */
		private final boolean enabled;

		/**
		 * How long published rows are kept, e.g. for inspection; zero (with cleanup enabled) deletes each row
		 * as it is published instead of marking it.
		 */
		private final Duration publishedRetention;

		/**
		 * How long DEAD rows are kept after they became DEAD. Unset: kept until retried or deleted by hand.
		 */
		private final @Nullable Duration deadRetention;

		/**
		 * Pause between cleanups.
		 */
		private final Duration interval;

		/**
		 * Most rows deleted in one transaction.
		 */
		private final int batchSize;

		public Cleanup(@DefaultValue("true") boolean enabled, @DefaultValue("7d") Duration publishedRetention,
				@Nullable Duration deadRetention, @DefaultValue("1m") Duration interval,
				@DefaultValue("1000") int batchSize) {
			checkNotNegative(publishedRetention, "outbox.cleanup.published-retention");
			checkNotNegative(deadRetention, "outbox.cleanup.dead-retention");
			checkPositive(interval, "outbox.cleanup.interval");
			checkBetween(batchSize, 1, 10000, "outbox.cleanup.batch-size");
			this.enabled = enabled;
			this.publishedRetention = publishedRetention;
			this.deadRetention = deadRetention;
			this.interval = interval;
			this.batchSize = batchSize;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public Duration getPublishedRetention() {
			return this.publishedRetention;
		}

		public @Nullable Duration getDeadRetention() {
			return this.deadRetention;
		}

		public Duration getInterval() {
			return this.interval;
		}

		public int getBatchSize() {
			return this.batchSize;
		}

	}

	/**
	 * The backlog reading behind the backlog gauges and the health indicator.
	 */
	public static class Backlog {

		/**
		 * Pause between readings of the backlog (one indexed query per instance, however often metrics
		 * are scraped or health is checked).
		 */
		private final Duration refreshInterval;

		public Backlog(@DefaultValue("10s") Duration refreshInterval) {
			checkPositive(refreshInterval, "outbox.backlog.refresh-interval");
			this.refreshInterval = refreshInterval;
		}

		public Duration getRefreshInterval() {
			return this.refreshInterval;
		}

	}

	/**
	 * The relay of the tenants' outboxes, when the application defines an 'OutboxTenants' bean.
	 */
	public static class Tenants {

		/**
		 * How many tenants' outboxes are relayed at once. Each relay thread holds at most one connection
		 * at a time, so this bounds the connections the relay holds however many tenants there are.
		 */
		private final int relayThreads;

		/**
		 * How long the relay leaves a tenant alone after its outbox could not be read (its database
		 * down, its schema unreachable), so that the tenant delays the others by at most one failed
		 * attempt per relay thread in this time.
		 */
		private final Duration failureBackoff;

		public Tenants(@DefaultValue("2") int relayThreads, @DefaultValue("30s") Duration failureBackoff) {
			checkBetween(relayThreads, 1, 64, "outbox.tenants.relay-threads");
			checkPositive(failureBackoff, "outbox.tenants.failure-backoff");
			this.relayThreads = relayThreads;
			this.failureBackoff = failureBackoff;
		}

		public int getRelayThreads() {
			return this.relayThreads;
		}

		public Duration getFailureBackoff() {
			return this.failureBackoff;
		}

	}

	/**
	 * How the outbox table is created.
	 */
	public static class Schema {

		/**
		 * How the outbox table is created and upgraded: 'flyway' applies the shipped migrations with a
		 * history table of their own, 'scripts' applies the shipped scripts the table lacks and records
		 * them in a table of their own, 'none' only checks the table exists, 'auto' is 'flyway' when Flyway
		 * is on the classpath and 'scripts' otherwise.
		 */
		private final Mode mode;

		public Schema(@DefaultValue("auto") Mode mode) {
			this.mode = mode;
		}

		public Mode getMode() {
			return this.mode;
		}

		/**
		 * How the outbox table is created.
		 */
		public enum Mode {

			/** Flyway when it is on the classpath, scripts otherwise. */
			AUTO,

			/** Versioned Flyway migrations with the outbox's own history table. */
			FLYWAY,

			/** The shipped SQL scripts the table lacks, recorded in {@code <table-name>_script_history}. */
			SCRIPTS,

			/** Nothing: the table must exist. */
			NONE

		}

	}

	/**
	 * The CloudEvents format.
	 */
	public static class CloudEvents {

		/**
		 * CloudEvents 'source' of the events this application publishes as CloudEvents, a URI-reference
		 * such as '/orders' or 'https://acme.com/orders'. Defaults to 'spring.application.name'.
		 */
		private final @Nullable String source;

		public CloudEvents(@Nullable String source) {
			check(source == null || isUriReference(source), "outbox.cloudevents.source", source,
					"it must be a non-empty URI-reference, e.g. /orders or https://acme.com/orders (or unset, to use "
							+ "spring.application.name)");
			this.source = source;
		}

		private static boolean isUriReference(String source) {
			if (!StringUtils.hasText(source)) {
				return false;
			}
			try {
				new URI(source);
				return true;
			}
			catch (URISyntaxException ex) {
				return false;
			}
		}

		public @Nullable String getSource() {
			return this.source;
		}

	}

	/**
	 * Where events of one class go. Unset values come from the class's '@OutboxEvent' annotation.
	 */
	public static class Route {

		/**
		 * Stable logical event name; defaults to the simple class name.
		 */
		private final @Nullable String eventType;

		/**
		 * Transport that publishes the events; defaults to 'outbox.default-transport'.
		 */
		private final @Nullable String transport;

		/**
		 * Topic, or the transport's equivalent.
		 */
		private final @Nullable String destination;

		/**
		 * SpEL expression against the event that gives the message key; defaults to the aggregate id.
		 */
		private final @Nullable String key;

		/**
		 * How the messages are laid out on the broker: 'outbox' or 'cloudevents'; defaults to
		 * 'outbox.message-format'.
		 */
		private final @Nullable String format;

		/**
		 * How long after they are raised (not after their transaction commits) the events are published at
		 * the earliest (delayed delivery); defaults to the annotation's, else at once. The relay publishes
		 * them within about one poll interval of their time.
		 */
		private final @Nullable Duration delay;

		/**
		 * Whether a delayed event holds back the events of its key committed after it until it is
		 * published, for its whole delay; defaults to the annotation's, else false (a delayed event leaves
		 * its key's order).
		 */
		private final @Nullable Boolean delayHoldsKey;

		/**
		 * Format of the payloads: 'json', or the format name of an OutboxPayloadSerializer bean, such as
		 * 'avro'; defaults to the annotation's, else to the format of a serializer that claims the event's
		 * type, else to 'outbox.payload-format'.
		 */
		private final @Nullable String payloadFormat;

		public Route(@Nullable String eventType, @Nullable String transport, @Nullable String destination,
				@Nullable String key, @Nullable String format, @Nullable Duration delay,
				@Nullable Boolean delayHoldsKey, @Nullable String payloadFormat) {
			this.eventType = eventType;
			this.transport = transport;
			this.destination = destination;
			this.key = key;
			this.format = format;
			this.delay = delay;
			this.delayHoldsKey = delayHoldsKey;
			this.payloadFormat = payloadFormat;
		}

		public @Nullable String getPayloadFormat() {
			return this.payloadFormat;
		}

		public @Nullable Duration getDelay() {
			return this.delay;
		}

		public @Nullable Boolean getDelayHoldsKey() {
			return this.delayHoldsKey;
		}

		public @Nullable String getFormat() {
			return this.format;
		}

		public @Nullable String getEventType() {
			return this.eventType;
		}

		public @Nullable String getTransport() {
			return this.transport;
		}

		public @Nullable String getDestination() {
			return this.destination;
		}

		public @Nullable String getKey() {
			return this.key;
		}

	}

	/**
	 * The outbox of a data source other than the primary one.
	 */
	public static class DataSourceOutbox {

		/**
		 * Whether the data source has an outbox; defaults to whether a transaction manager of the context
		 * runs transactions on it.
		 */
		private final @Nullable Boolean enabled;

		/**
		 * Name of the data source's outbox table; defaults to 'outbox.table-name'.
		 */
		private final @Nullable String tableName;

		public DataSourceOutbox(@Nullable Boolean enabled, @Nullable String tableName) {
			this.enabled = enabled;
			this.tableName = tableName;
		}

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public @Nullable String getTableName() {
			return this.tableName;
		}

	}

}
