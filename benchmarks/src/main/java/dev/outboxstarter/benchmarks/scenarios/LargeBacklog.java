package dev.outboxstarter.benchmarks.scenarios;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.starter.StarterApplication;

/**
 * Scenario 5, a large backlog in a small heap: {@code events} pending events drained by the starter
 * in a JVM the suite starts with {@code -Xmx256m} and {@code -XX:+ExitOnOutOfMemoryError}, so that any
 * result at all means no {@link OutOfMemoryError} was thrown. Reports the drain time, events per
 * second, the peak heap (including garbage not collected yet) and the largest heap right after a
 * collection (closer to what the starter needed) while draining.
 * <p>
 * The backlog is not written through the application: a million transactions from 8 threads take
 * about ten minutes and measure the write path, which write cost does. Instead, with the starter
 * running (so its table exists) and the broker reachable, one transaction inserts the rows into the
 * starter's outbox table the way it stores them (its event type, transport, topic and key columns, an
 * event of about the size of the other scenarios', {@code PENDING}, no attempts, due now) with
 * {@code INSERT ... SELECT FROM generate_series}, and analyzes the table, as autovacuum would have
 * during the outage that built such a backlog. The clock starts when that transaction commits, the
 * moment the relay can see the rows.
 * <p>
 * The consumer that counts the arrivals shares the JVM; it is an {@link Arrivals}, whose capped fetches
 * and bitmap take a few megabytes of the measured heap at most.
 */
public final class LargeBacklog {

	private static final String PREFIX = "memory";

	/** The starter's default {@code outbox.table-name}, which the starter contender keeps. */
	private static final String TABLE = "outbox_event";

	/**
	 * The JSON the starter stores for a {@link StarterApplication.OrderPlaced} with a
	 * {@link Measurements#payload}, from the columns {@code key} and {@code n}.
	 */
	private static final String PAYLOAD = "'{\"key\":\"' || key || '\",\"payload\":' || to_json('{\"orderId\":\"' || key"
			+ " || '\",\"customer\":\"customer-' || n || '\",\"amount\":42.50,\"currency\":\"EUR\",\"lines\":3,"
			+ "\"note\":\"benchmark order placed through the outbox\"}')::text || '}'";

	private LargeBacklog() {
	}

	/**
	 * @param settings the database, schema, broker and topic of the starter, which is running
	 */
	public static Map<String, Object> run(ContenderSettings settings, int events, Duration limit) throws Exception {
		try (Arrivals arrivals = Arrivals.counting(settings.bootstrapServers(), settings.topic(), PREFIX);
				Measurements.HeapAfterCollections afterCollections = new Measurements.HeapAfterCollections()) {
			Measurements.resetPeakHeap();
			long insertStarted = System.nanoTime();
			insert(settings, events);
			long started = System.nanoTime();
			boolean all = arrivals.await(events, started + limit.toNanos());
			double seconds = (System.nanoTime() - started) / 1e9;
			int received = arrivals.received();
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("events", events);
			result.put("insertSeconds", (started - insertStarted) / 1e9);
			result.put("received", received);
			result.put("lost", events - received);
			result.put("drainSeconds", all ? seconds : null);
			result.put("eventsPerSecond", all ? events / seconds : null);
			result.put("maxHeapMegabytes", Runtime.getRuntime().maxMemory() / (1024.0 * 1024.0));
			result.put("peakHeapMegabytes", Measurements.peakHeapMegabytes());
			result.put("peakHeapAfterCollectionsMegabytes", afterCollections.peakMegabytes());
			// -XX:+ExitOnOutOfMemoryError would have ended the JVM before this line.
			result.put("outOfMemoryErrors", 0);
			return result;
		}
	}

	private static void insert(ContenderSettings settings, int events) throws Exception {
		try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), settings.username(), "")) {
			connection.setAutoCommit(false);
			try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE
					+ " (id, event_type, transport, destination, message_key, payload, status, attempts, available_at,"
					+ " created_at) SELECT gen_random_uuid(), ?, 'kafka', ?, key, " + PAYLOAD + ", 'PENDING', 0, now(),"
					+ " now() FROM (SELECT n, ? || '-' || n AS key FROM generate_series(0, ? - 1) AS n) AS numbered");
					Statement analyze = connection.createStatement()) {
				insert.setString(1, StarterApplication.OrderPlaced.class.getSimpleName());
				insert.setString(2, settings.topic());
				insert.setString(3, PREFIX);
				insert.setInt(4, events);
				insert.executeUpdate();
				analyze.execute("ANALYZE " + TABLE);
			}
			connection.commit();
		}
	}

}
