package dev.outboxstarter.benchmarks;

/**
 * One way of getting an event from a business transaction to Kafka. Each runs in a JVM of its own
 * ({@link ContenderProcess}), against a PostgreSQL schema of its own.
 */
public interface Contender extends AutoCloseable {

	/**
	 * Starts the contender: its application context, its tables, its publishing.
	 * @param settings where the database and the broker are
	 */
	void start(ContenderSettings settings);

	/**
	 * One business transaction: inserts one order row and, with it, one event for the topic.
	 * @param key the event's key (the order id)
	 * @param payload the event's JSON
	 */
	void placeOrder(String key, String payload);

	/**
	 * Called once the broker is reachable again after an outage. Contenders that do not retry on
	 * their own (Spring Modulith resubmits incomplete publications on demand) do it here.
	 */
	default void brokerIsBack() {
	}

	/**
	 * Stops publishing and releases everything.
	 */
	@Override
	void close();

}
