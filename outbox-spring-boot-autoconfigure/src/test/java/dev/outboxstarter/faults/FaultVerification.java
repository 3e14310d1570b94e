package dev.outboxstarter.faults;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * What the outbox table holds and what a consumer received at the end of a run, and the figures that
 * compare them.
 */
final class FaultVerification {

	private static final JsonMapper json = new JsonMapper();

	final List<Row> rows = new ArrayList<>();

	final Map<Integer, Long> counters = new HashMap<>();

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

	static FaultVerification of(JdbcTemplate jdbc, String table, String bootstrapServers, String topic,
			Set<String> rolledBack) {
		FaultVerification verification = new FaultVerification();
		verification.readTable(jdbc, table);
		verification.consume(bootstrapServers, topic);
		verification.compare(rolledBack);
		return verification;
	}

	private void readTable(JdbcTemplate jdbc, String table) {
		jdbc.query("SELECT id, seq, event_type, status, attempts, message_key, payload, last_error FROM " + table
				+ " ORDER BY seq", (RowCallbackHandler) (rs) -> {
					String type = rs.getString("event_type");
					JsonNode payload = json.readTree(rs.getString("payload"));
					this.rows.add(new Row(rs.getString("id"), rs.getLong("seq"), type, rs.getString("status"),
							rs.getInt("attempts"), rs.getString("message_key"), payload.get("key").asInt(),
							payload.has("n") ? payload.get("n").asLong() : -1, payload.get("txId").asString(),
							rs.getString("last_error")));
				});
		jdbc.query("SELECT id, total FROM " + Counter.TABLE,
				(RowCallbackHandler) (rs) -> this.counters.put(rs.getInt("id"),
						rs.getLong("total")));
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
							payload.get("key").asInt(), payload.has("n") ? payload.get("n").asLong() : -1,
							payload.get("txId").asString()));
				}
			}
		}
	}

	private void compare(Set<String> rolledBack) {
		Map<Integer, Long> lastByKey = new HashMap<>();
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
			long previous = lastByKey.getOrDefault(message.payloadKey(), 0L);
			if (message.n() != previous + 1) {
				this.orderViolations.add("key " + message.payloadKey() + ": " + message.n() + " after " + previous
						+ " (" + message + ")");
			}
			lastByKey.put(message.payloadKey(), Math.max(previous, message.n()));
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
		}
	}

	List<Row> rowsOfType(String type) {
		return this.rows.stream().filter((row) -> row.type().equals(type)).toList();
	}

	long counterSum() {
		return this.counters.values().stream().mapToLong(Long::longValue).sum();
	}

	record Row(String id, long seq, String type, String status, int attempts, String messageKey, int payloadKey,
			long n, String txId, String lastError) {

		@Override
		public String toString() {
			return this.type + " " + this.id + " seq " + this.seq + " key " + this.payloadKey + " n " + this.n + " tx "
					+ this.txId + " " + this.status + " attempts " + this.attempts;
		}

	}

	record Message(int partition, long offset, String key, String id, String type, int payloadKey, long n,
			String txId) {

		@Override
		public String toString() {
			return this.type + " " + this.id + " key " + this.key + " n " + this.n + " tx " + this.txId + " at "
					+ this.partition + "@" + this.offset;
		}

	}

}
