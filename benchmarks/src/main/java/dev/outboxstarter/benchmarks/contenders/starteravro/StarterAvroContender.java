package dev.outboxstarter.benchmarks.contenders.starteravro;

import java.util.Map;

import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

import org.springframework.util.Assert;

/**
 * The starter at its defaults with its event written as Avro through a schema registry
 * ({@link ContenderSettings#schemaRegistryUrl()}), in Confluent's wire format, the module's default. The
 * schema is registered as the contender starts, by one order on one thread, before any warm-up: the
 * measured transactions find it cached, as in a running application. Left to the warm-up's first
 * orders, 8 writers would each register it at once, and the registry's in-memory storage, waiting on
 * its own table locks, kept some of them beyond the module's 5 s request timeout, which refused them.
 */
public class StarterAvroContender extends SpringContender {

	private final boolean writersThread;

	/**
	 * @param writersThread whether Apicurio's serializer is called on the writer's thread
	 * ({@link WritersThreadAvroSerializer}) rather than through the module's serializer, which calls it on
	 * a thread of its own
	 */
	public StarterAvroContender(boolean writersThread) {
		this.writersThread = writersThread;
	}

	@Override
	public void start(ContenderSettings settings) {
		super.start(settings);
		placeOrder("schema-registration", "{}");
	}

	@Override
	protected Class<?> application() {
		return StarterAvroApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		Assert.state(settings.schemaRegistryUrl() != null,
				"The Avro contender needs a schema registry: the suite starts one for it");
		return Map.of("outbox.schema-registry.url", settings.schemaRegistryUrl(), "bench.avro.writers-thread",
				this.writersThread);
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(StarterAvroApplication.Orders.class).place(key, payload);
	}

}
