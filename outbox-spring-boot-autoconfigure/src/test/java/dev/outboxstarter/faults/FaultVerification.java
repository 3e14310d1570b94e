package dev.outboxstarter.faults;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.testsupport.TopicRecorder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * What the outbox tables hold (the primary one, and each tenant's in its schema) and what a consumer
 * received at the end of a run, and the figures that compare them. A key is a tenant's: key 7 of one
 * tenant is another counter than key 7 of another, or of no tenant, and has an order of its own.
 */
final class FaultVerification {

	private static final JsonMapper json = new JsonMapper();

	final List<Row> rows = new ArrayList<>();

	/** The counters' totals, by scoped key ({@link #scopedKey}). */
	final Map<String, Long> counters = new HashMap<>();

	final List<Message> messages = new ArrayList<>();

	/** Committed Counted events: the outbox rows of type counted, by id. */
	final Map<String, Row> committed = new LinkedHashMap<>();

	final Set<String> receivedIds = new HashSet<>();

	final List<String> missing = new ArrayList<>();

	final List<String> unexpected = new ArrayList<>();

	final List<String> duplicates = new ArrayList<>();

	final List<String> orderViolations = new ArrayList<>();

	final List<String> gaps = new ArrayList<>();

	final List<String> rolledBackReceived = new ArrayList<>();

	final List<String> rolledBackStored = new ArrayList<>();

	final List<String> notPublished = new ArrayList<>();

	/** Rows in the outbox of another tenant than the one their transaction ran as. */
	final List<String> misplaced = new ArrayList<>();

	static FaultVerification of(JdbcTemplate jdbc, String table, String bootstrapServers, String topic,
			Set<String> rolledBack) {
		return of(jdbc, List.of(new Outbox(null, table, Counter.TABLE)), bootstrapServers, topic, rolledBack);
	}

	static FaultVerification of(JdbcTemplate jdbc, List<Outbox> outboxes, String bootstrapServers, String topic,
			Set<String> rolledBack) {
		FaultVerification verification = new FaultVerification();
		outboxes.forEach((outbox) -> verification.readTables(jdbc, outbox));
		verification.consume(bootstrapServers, topic);
		verification.compare(rolledBack);
		return verification;
	}

	private void readTables(JdbcTemplate jdbc, Outbox outbox) {
		jdbc.query("SELECT id, seq, event_type, status, attempts, message_key, payload, last_error FROM "
				+ outbox.table() + " ORDER BY seq", (RowCallbackHandler) (rs) -> {
					String type = rs.getString("event_type");
					JsonNode payload = json.readTree(rs.getString("payload"));
					this.rows.add(new Row(outbox.tenant(), rs.getString("id"), rs.getLong("seq"), type,
							rs.getString("status"), rs.getInt("attempts"), rs.getString("message_key"),
							tenantOf(payload), payload.get("key").asInt(),
							payload.has("n") ? payload.get("n").asLong() : -1, payload.get("txId").asString(),
							rs.getString("last_error")));
				});
		jdbc.query("SELECT id, total FROM " + outbox.counters(), (RowCallbackHandler) (rs) -> this.counters
			.put(scopedKey(outbox.tenant(), rs.getInt("id")), rs.getLong("total")));
	}

	private void collectCommitted() {
		for (Row row : this.rows) {
			if (row.type().equals(Counted.TYPE)) {
				this.committed.put(row.id(), row);
			}
		}
	}

	private void consume(String bootstrapServers, String topic) {
		Properties config = new Properties();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "fault-verification-" + UUID.randomUUID());
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
		config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
				new StringDeserializer())) {
			List<TopicPartition> partitions = TopicRecorder.partitionsOf(consumer, topic);
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			// Everything is published and acknowledged before this runs: read up to the end offsets.
			Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (partitions.stream().anyMatch((partition) -> consumer.position(partition) < end.get(partition))) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Could not read " + topic + " to its end offsets " + end);
				}
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					Map<String, String> headers = new HashMap<>();
					for (Header header : record.headers()) {
						headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
					}
					JsonNode payload = json.readTree(record.value());
					this.messages.add(new Message(record.partition(), record.offset(), record.key(),
							headers.get(OutboxHeaders.MESSAGE_ID), headers.get(OutboxHeaders.EVENT_TYPE),
							tenantOf(payload), payload.get("key").asInt(),
							payload.has("n") ? payload.get("n").asLong() : -1, payload.get("txId").asString()));
				}
			}
		}
	}

	private void compare(Set<String> rolledBack) {
		collectCommitted();
		Map<String, Long> lastByKey = new HashMap<>();
		for (Message message : this.messages) {
			if (!this.receivedIds.add(message.id())) {
				this.duplicates.add(message.toString());
				continue;
			}
			if (!this.committed.containsKey(message.id())) {
				this.unexpected.add(message.toString());
			}
			if (rolledBack.contains(message.txId())) {
				this.rolledBackReceived.add(message.toString());
			}
			if (!String.valueOf(message.payloadKey()).equals(message.key())) {
				this.orderViolations.add("key mismatch: " + message);
			}
			// Each key's first deliveries must carry 1, 2, 3...: commit order, nothing skipped.
			String key = scopedKey(message.tenant(), message.payloadKey());
			long previous = lastByKey.getOrDefault(key, 0L);
			if (message.n() != previous + 1) {
				this.orderViolations.add("key " + key + ": " + message.n() + " after " + previous + " (" + message + ")");
			}
			lastByKey.put(key, Math.max(previous, message.n()));
		}
		for (Row row : this.committed.values()) {
			if (!this.receivedIds.contains(row.id())) {
				this.missing.add(row.toString());
			}
		}
		this.counters.forEach((key, total) -> {
			long last = lastByKey.getOrDefault(key, 0L);
			if (last != total) {
				this.gaps.add("key " + key + ": counter at " + total + ", last delivered " + last);
			}
		});
		for (Row row : this.rows) {
			if (rolledBack.contains(row.txId())) {
				this.rolledBackStored.add(row.toString());
			}
			if (!row.status().equals("PUBLISHED") && !row.type().equals(Poison.TYPE)) {
				this.notPublished.add(row.toString());
			}
			if (!Objects.equals(row.tenant(), row.payloadTenant())) {
				this.misplaced.add("in the outbox of " + describe(row.tenant()) + ": " + row);
			}
		}
	}

	/**
	 * The committed events of each outbox that has some.
	 * @return counts by outbox, as {@link #describe} names it
	 */
	Map<String, Long> committedByOutbox() {
		Map<String, Long> counts = new LinkedHashMap<>();
		this.committed.values().forEach((row) -> counts.merge(describe(row.tenant()), 1L, Long::sum));
		return counts;
	}

	/**
	 * Names an outbox by its tenant.
	 * @param tenant the tenant, {@code null} for the primary outbox
	 * @return {@code tenant a}, or {@code no tenant}
	 */
	static String describe(@Nullable String tenant) {
		return (tenant != null) ? "tenant " + tenant : "no tenant";
	}

	/**
	 * A key as the order is kept for it: a tenant's key ({@code a/7}), or a key of no tenant ({@code 7}).
	 */
	static String scopedKey(@Nullable String tenant, int key) {
		return (tenant != null) ? tenant + "/" + key : String.valueOf(key);
	}

	private static @Nullable String tenantOf(JsonNode payload) {
		JsonNode tenant = payload.get("tenant");
		return (tenant != null && !tenant.isNull()) ? tenant.asString() : null;
	}

	List<Row> rowsOfType(String type) {
		return this.rows.stream().filter((row) -> row.type().equals(type)).toList();
	}

	long counterSum() {
		return this.counters.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * One outbox of a run.
	 *
	 * @param tenant its tenant, {@code null} for the primary outbox
	 * @param table its table, qualified by the tenant's schema
	 * @param counters the counters' table in the same schema
	 */
	record Outbox(@Nullable String tenant, String table, String counters) {

	}

	/**
	 * A row of an outbox table.
	 *
	 * @param tenant the tenant of the outbox it is in
	 * @param payloadTenant the tenant its transaction ran as
	 */
	record Row(@Nullable String tenant, String id, long seq, String type, String status, int attempts,
			String messageKey, @Nullable String payloadTenant, int payloadKey, long n, String txId,
			String lastError) {

		@Override
		public String toString() {
			return this.type + " " + this.id + " seq " + this.seq + " key " + scopedKey(this.payloadTenant,
					this.payloadKey) + " n " + this.n + " tx " + this.txId + " " + this.status + " attempts "
					+ this.attempts;
		}

	}

	record Message(int partition, long offset, String key, String id, String type, @Nullable String tenant,
			int payloadKey, long n, String txId) {

		@Override
		public String toString() {
			return this.type + " " + this.id + " key " + scopedKey(this.tenant, this.payloadKey) + " n " + this.n
					+ " tx " + this.txId + " at " + this.partition + "@" + this.offset;
		}

	}

}
