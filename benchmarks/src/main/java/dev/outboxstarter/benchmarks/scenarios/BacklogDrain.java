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
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Scenario 3, backlog drain: events written while the broker is unreachable (the contender talks to
 * a closed forwarder), then the broker is made reachable; the time until a consumer has every event,
 * events per second, and the contender JVM's peak heap meanwhile. Also tells how many events were
 * lost (never arrive within the time limit), which is what the naive dual write does.
 */
public final class BacklogDrain {

	private BacklogDrain() {
	}

	public static Map<String, Object> run(Contender contender, TcpForwarder broker, String bootstrapServers,
			String topic, int events, Duration limit) throws Exception {
		double writeSeconds = write(contender, events);
		Map<String, Object> result = drain(List.of(contender), broker, bootstrapServers, topic, events, limit);
		result.put("writeSeconds", writeSeconds);
		return result;
	}

	/**
	 * Writes the backlog, keys {@code drain-<number>}, with 8 threads.
	 * @return how long it took, in seconds
	 */
	static double write(Contender contender, int events) throws Exception {
		long started = System.nanoTime();
		WriteCost.run(contender, events, 8, 0, "drain");
		return (System.nanoTime() - started) / 1e9;
	}

	/**
	 * Makes the broker reachable and waits until every event of the backlog has arrived or the limit
	 * passed.
	 * @param contenders every instance that publishes, each told that the broker is back
	 */
	static Map<String, Object> drain(List<Contender> contenders, TcpForwarder broker, String bootstrapServers,
			String topic, int events, Duration limit) {
		Set<String> keys = new HashSet<>();
		for (int i = 0; i < events; i++) {
			String key = "drain-" + i;
			keys.add(key);
		}
		try (KafkaConsumer<String, String> consumer = consumer(bootstrapServers)) {
			Set<String> received = new HashSet<>();
			// Joining the group is not timed as the drain.
			Arrivals.subscribeAssigned(consumer, topic, (records) -> receive(records, keys, received));
			Measurements.resetPeakHeap();
			long started = System.nanoTime();
			broker.open();
			contenders.forEach(Contender::brokerIsBack);
			long deadline = started + limit.toNanos();
			while (received.size() < events && System.nanoTime() < deadline) {
				receive(consumer.poll(Duration.ofMillis(100)), keys, received);
			}
			double seconds = (System.nanoTime() - started) / 1e9;
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("events", events);
			result.put("received", received.size());
			result.put("lost", events - received.size());
			result.put("drainSeconds", (received.size() == events) ? seconds : null);
			result.put("eventsPerSecond", (received.size() == events) ? events / seconds : null);
			result.put("peakHeapMegabytes", Measurements.peakHeapMegabytes());
			return result;
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
