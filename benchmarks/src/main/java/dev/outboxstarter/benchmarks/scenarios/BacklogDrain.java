package dev.outboxstarter.benchmarks.scenarios;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.outboxstarter.benchmarks.Contender;
import dev.outboxstarter.testsupport.TcpForwarder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Scenario 3, backlog drain: events written while the broker is unreachable (the contender talks to
 * a closed forwarder), then the broker is made reachable; the time until a consumer has every event,
 * events per second, and the contender JVM's peak heap meanwhile. Also tells how many events were
 * lost (never arrive within the time limit), which is what the naive dual write does. Also the same
 * drain after an outage of the running broker ({@link #afterRestart}).
 */
public final class BacklogDrain {

	private BacklogDrain() {
	}

	public static Map<String, Object> run(Contender contender, TcpForwarder broker, String bootstrapServers,
			String topic, int events, Duration limit) throws Exception {
		Map<String, Object> writes = write(contender, events);
		Map<String, Object> result = drain(List.of(contender), broker, bootstrapServers, topic, events, limit);
		result.putAll(writes);
		return result;
	}

	/**
	 * The drain after an outage of a broker the contender was publishing to: the contender warms up
	 * through the running broker until a consumer has every warm-up event, the broker process stops,
	 * the backlog is written, and the broker starts again; the time from when it answers again until
	 * the consumer has the whole backlog. Unlike {@link #run}, the publish path has run before the
	 * outage, and the contender's producer has connections and metadata it must recover.
	 * @param contender the contender, started against the broker
	 * @param stopBroker stops the broker and returns once it has
	 * @param startBroker starts the broker again and returns once it answers
	 * @param bootstrapServers the broker
	 * @param topic the topic
	 * @param events the backlog's size
	 * @param warmup transactions before the outage
	 * @param limit how long to wait for the warm-up's events, and for the backlog's
	 * @return the drain's figures, as {@link #run} reports them
	 */
	public static Map<String, Object> afterRestart(Contender contender, Runnable stopBroker, Runnable startBroker,
			String bootstrapServers, String topic, int events, int warmup, Duration limit) throws Exception {
		try (KafkaConsumer<String, String> consumer = consumer(bootstrapServers)) {
			// Assigned, not subscribed: no group to rejoin when the broker comes back.
			consumer.assign(consumer.partitionsFor(topic)
				.stream()
				.map((partition) -> new TopicPartition(topic, partition.partition()))
				.toList());
			WriteCost.run(contender, warmup, 8, 0, "warm");
			Set<String> warm = new HashSet<>();
			awaitAll(consumer, keys("warm", warmup), warm, System.nanoTime() + limit.toNanos());
			if (warm.size() < warmup) {
				// What is left of the warm-up would be drained with the backlog.
				throw new IllegalStateException("Only " + warm.size() + " of " + warmup
						+ " warm-up events arrived within " + limit + ": the contender does not keep up");
			}
			stopBroker.run();
			Map<String, Object> writes = write(contender, events);
			startBroker.run();
			Measurements.resetPeakHeap();
			long started = System.nanoTime();
			contender.brokerIsBack();
			Set<String> received = new HashSet<>();
			awaitAll(consumer, keys("drain", events), received, started + limit.toNanos());
			Map<String, Object> result = result(events, received.size(), (System.nanoTime() - started) / 1e9);
			result.putAll(writes);
			return result;
		}
	}

	/**
	 * A drain's figures: a drain that did not get every event has no time or rate, only what was lost.
	 */
	private static Map<String, Object> result(int events, int received, double seconds) {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("events", events);
		result.put("received", received);
		result.put("lost", events - received);
		result.put("drainSeconds", (received == events) ? seconds : null);
		result.put("eventsPerSecond", (received == events) ? events / seconds : null);
		result.put("peakHeapMegabytes", Measurements.peakHeapMegabytes());
		return result;
	}

	private static Set<String> keys(String prefix, int count) {
		Set<String> keys = new HashSet<>();
		for (int i = 0; i < count; i++) {
			keys.add(prefix + "-" + i);
		}
		return keys;
	}

	private static void awaitAll(KafkaConsumer<String, String> consumer, Set<String> keys, Set<String> received,
			long deadline) {
		while (received.size() < keys.size() && System.nanoTime() < deadline) {
			receive(consumer.poll(Duration.ofMillis(100)), keys, received);
		}
	}

	/**
	 * Writes the backlog, keys {@code drain-<number>}, with 8 threads, while the broker is unreachable.
	 * @return how long it took ({@code writeSeconds}), and how long its business transactions took to
	 * commit ({@code outageCommitP50Millis}, {@code outageCommitP99Millis}): the figure the fault
	 * suite prints but does not judge
	 */
	static Map<String, Object> write(Contender contender, int events) throws Exception {
		long started = System.nanoTime();
		Map<String, Object> cost = WriteCost.run(contender, events, 8, 0, "drain");
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("writeSeconds", (System.nanoTime() - started) / 1e9);
		figures.put("outageCommitP50Millis", cost.get("p50Millis"));
		figures.put("outageCommitP99Millis", cost.get("p99Millis"));
		return figures;
	}

	/**
	 * Makes the broker reachable and waits until every event of the backlog has arrived or the limit
	 * passed.
	 * @param contenders every instance that publishes, each told that the broker is back
	 */
	static Map<String, Object> drain(List<Contender> contenders, TcpForwarder broker, String bootstrapServers,
			String topic, int events, Duration limit) {
		Set<String> keys = keys("drain", events);
		try (KafkaConsumer<String, String> consumer = consumer(bootstrapServers)) {
			Set<String> received = new HashSet<>();
			// Joining the group is not timed as the drain.
			Arrivals.subscribeAssigned(consumer, topic, (records) -> receive(records, keys, received));
			Measurements.resetPeakHeap();
			long started = System.nanoTime();
			broker.open();
			contenders.forEach(Contender::brokerIsBack);
			awaitAll(consumer, keys, received, started + limit.toNanos());
			return result(events, received.size(), (System.nanoTime() - started) / 1e9);
		}
	}

	private static void receive(ConsumerRecords<String, String> records, Set<String> keys, Set<String> received) {
		for (ConsumerRecord<String, String> record : records) {
			if (keys.contains(record.key())) {
				received.add(record.key());
			}
		}
	}

	private static KafkaConsumer<String, String> consumer(String bootstrapServers) {
		return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
				"earliest", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000), new StringDeserializer(),
				new StringDeserializer());
	}

}
