package dev.outboxstarter.benchmarks.scenarios;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A consumer of the topic, on a thread of its own, that counts the events of a run as they first
 * arrive and, if asked, notes when. Events are told apart by the number in their key,
 * {@code <prefix>-<number>}; other keys are skipped and redeliveries count once. Its fetches are
 * capped at 1 MB and it remembers the numbers seen in a bitmap (125 KB for a million), so it adds little
 * to the heap of the JVM it shares with a contender.
 */
final class Arrivals implements AutoCloseable {

	static final long NOT_ARRIVED = Long.MIN_VALUE;

	private static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(60);

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private final KafkaConsumer<String, String> consumer;

	private final String prefix;

	private final BitSet seen = new BitSet();

	private final long[] times;

	private final AtomicInteger received = new AtomicInteger();

	private final Thread thread;

	private volatile boolean running = true;

	private Arrivals(String bootstrapServers, String topic, String prefix, long[] times) {
		this.prefix = prefix + "-";
		this.times = times;
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
				"earliest", ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 1024 * 1024,
				ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 256 * 1024), new StringDeserializer(),
				new StringDeserializer());
		// A rebalance after the first write would count against the contender's latency.
		try {
			subscribeAssigned(this.consumer, topic, this::record);
		}
		catch (IllegalStateException ex) {
			this.consumer.close();
			throw ex;
		}
		this.thread = new Thread(this::consume, "arrivals");
		this.thread.start();
	}

	/**
	 * Subscribes and polls until the group has given the consumer the topic's partitions.
	 * @param consumer the consumer
	 * @param topic the topic
	 * @param polled told of whatever the polls meanwhile return
	 */
	static void subscribeAssigned(KafkaConsumer<String, String> consumer, String topic,
			Consumer<ConsumerRecords<String, String>> polled) {
		consumer.subscribe(List.of(topic));
		long deadline = System.nanoTime() + ASSIGNMENT_TIMEOUT.toNanos();
		while (consumer.assignment().isEmpty()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("No partitions of " + topic + " assigned within " + ASSIGNMENT_TIMEOUT);
			}
			polled.accept(consumer.poll(Duration.ofMillis(100)));
		}
	}

	/**
	 * A consumer that notes when each of {@code events} events arrived, subscribed and assigned.
	 * @param bootstrapServers the broker
	 * @param topic the topic
	 * @param prefix the keys' prefix
	 * @param events how many events the run numbers, from 0
	 * @return the consumer, polling
	 */
	static Arrivals timing(String bootstrapServers, String topic, String prefix, int events) {
		long[] times = new long[events];
		Arrays.fill(times, NOT_ARRIVED);
		return new Arrivals(bootstrapServers, topic, prefix, times);
	}

	/**
	 * A consumer that only counts, subscribed and assigned.
	 * @param bootstrapServers the broker
	 * @param topic the topic
	 * @param prefix the keys' prefix
	 * @return the consumer, polling
	 */
	static Arrivals counting(String bootstrapServers, String topic, String prefix) {
		return new Arrivals(bootstrapServers, topic, prefix, null);
	}

	/**
	 * The CPU time of the thread that polls and reads the records: the consumer's share of the JVM's,
	 * which is not the contender's.
	 * @return nanoseconds, or -1 where the JVM does not measure threads' CPU time
	 */
	long consumerCpuNanos() {
		return THREADS.getThreadCpuTime(this.thread.getId());
	}

	private void consume() {
		try {
			while (this.running) {
				record(this.consumer.poll(Duration.ofMillis(100)));
			}
		}
		catch (WakeupException ex) {
			// Closed.
		}
		finally {
			this.consumer.close();
		}
	}

	private void record(ConsumerRecords<String, String> records) {
		// One time for the whole poll: its records arrived together.
		long now = System.nanoTime();
		for (ConsumerRecord<String, String> record : records) {
			String key = record.key();
			if (key == null || !key.startsWith(this.prefix)) {
				continue;
			}
			int number = Integer.parseInt(key, this.prefix.length(), key.length(), 10);
			if (!this.seen.get(number)) {
				this.seen.set(number);
				if (this.times != null) {
					this.times[number] = now;
				}
				this.received.incrementAndGet();
			}
		}
	}

	/**
	 * Events of the run that have arrived.
	 * @return how many, each counted once
	 */
	int received() {
		return this.received.get();
	}

	/**
	 * When an event first arrived. Read once the consumer is closed, so every time it noted is seen.
	 * @param number the number in its key
	 * @return {@link System#nanoTime()} then, or {@link #NOT_ARRIVED}
	 */
	long arrivedAt(int number) {
		return this.times[number];
	}

	/**
	 * Waits until {@code count} events have arrived or the deadline passed.
	 * @param count how many
	 * @param deadline a {@link System#nanoTime()}
	 * @return whether they arrived
	 */
	boolean await(int count, long deadline) throws InterruptedException {
		while (received() < count) {
			if (System.nanoTime() - deadline > 0) {
				return false;
			}
			// The consumer thread stamps each arrival as it polls it; this only decides when to stop
			// waiting, so a 10 ms pause costs the measurement nothing.
			Thread.sleep(10);
		}
		return true;
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.consumer.wakeup();
		this.thread.join();
	}

}
