package dev.outboxstarter.benchmarks;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.outboxstarter.benchmarks.contenders.dbonly.DatabaseOnlyContender;
import dev.outboxstarter.benchmarks.contenders.logrelay.LogRelayContender;
import dev.outboxstarter.benchmarks.contenders.modulith.ModulithContender;
import dev.outboxstarter.benchmarks.contenders.namastack.NamastackContender;
import dev.outboxstarter.benchmarks.contenders.naive.NaiveDualWriteContender;
import dev.outboxstarter.benchmarks.contenders.raw.RawReferenceContender;
import dev.outboxstarter.benchmarks.contenders.starter.StarterContender;
import dev.outboxstarter.benchmarks.contenders.startertenants.StarterTenantsContender;
import dev.outboxstarter.benchmarks.contenders.starteravro.StarterAvroContender;

/**
 * The contenders by name.
 */
public enum Contenders {

	STARTER("starter (fast path)", () -> new StarterContender(Map.of())),

	STARTER_TWO_FAST_PATH_THREADS("starter (fast path, two threads)",
			() -> new StarterContender(Map.of("outbox.fast-path.threads", 2))),

	STARTER_RELAY_ONLY("starter (relay only)", () -> new StarterContender(Map.of("outbox.fast-path.enabled", false))),

	STARTER_DELETE_WHEN_PUBLISHED("starter (fast path, published rows deleted: published-retention 0)",
			() -> new StarterContender(Map.of("outbox.cleanup.published-retention", "0"))),

	STARTER_CAPTURE_ONLY("starter (capture only: fast path and relay off)",
			() -> new StarterContender(Map.of("outbox.fast-path.enabled", false, "outbox.relay.enabled", false))),

	STARTER_ONE_TENANT("starter, 1 tenant (a schema per tenant)", () -> new StarterTenantsContender(1)),

	STARTER_10_TENANTS("starter, 10 tenants (a schema per tenant)", () -> new StarterTenantsContender(10)),

	STARTER_100_TENANTS("starter, 100 tenants (a schema per tenant)", () -> new StarterTenantsContender(100)),

	STARTER_AVRO("starter, Avro payloads through Apicurio Registry 2.4.2 (confluent wire format)",
			() -> new StarterAvroContender(false), true),

	STARTER_AVRO_WRITERS_THREAD(
			"starter, Avro payloads, Apicurio's serializer called on the writer's thread (no request timeout: for comparison)",
			() -> new StarterAvroContender(true), true),

	LOG_RELAY("starter, log relay (Debezium 3.6.1, poll.interval.ms 500)", () -> new LogRelayContender(500),
			BenchmarkDatabase.POSTGRESQL),

	LOG_RELAY_10MS("starter, log relay (Debezium 3.6.1, poll.interval.ms 10)", () -> new LogRelayContender(10),
			BenchmarkDatabase.POSTGRESQL),

	MODULITH("Spring Modulith 2.1.1", ModulithContender::new),

	NAMASTACK_DEFAULTS("namastack-outbox 1.6.0 (defaults)", () -> new NamastackContender(false),
			BenchmarkDatabase.POSTGRESQL),

	NAMASTACK_TUNED("namastack-outbox 1.6.0 (tuned: batch 800, 100 ms, 16 threads)",
			() -> new NamastackContender(true), BenchmarkDatabase.POSTGRESQL),

	NAIVE_DUAL_WRITE("naive dual write", NaiveDualWriteContender::new),

	DATABASE_ONLY("database only (no events)", DatabaseOnlyContender::new),

	RAW_REFERENCE("raw JDBC + KafkaProducer", RawReferenceContender::new);

	private final String label;

	private final Supplier<Contender> factory;

	private final Set<BenchmarkDatabase> databases;

	private final boolean needsSchemaRegistry;

	Contenders(String label, Supplier<Contender> factory) {
		this(label, factory, BenchmarkDatabase.values());
	}

	Contenders(String label, Supplier<Contender> factory, boolean needsSchemaRegistry) {
		this(label, factory, needsSchemaRegistry, BenchmarkDatabase.values());
	}

	Contenders(String label, Supplier<Contender> factory, BenchmarkDatabase... databases) {
		this(label, factory, false, databases);
	}

	Contenders(String label, Supplier<Contender> factory, boolean needsSchemaRegistry,
			BenchmarkDatabase... databases) {
		this.label = label;
		this.factory = factory;
		this.needsSchemaRegistry = needsSchemaRegistry;
		this.databases = Set.of(databases);
	}

	public String label() {
		return this.label;
	}

	/**
	 * Whether the contender is set up for a database: the log relay's Debezium connector and namastack's
	 * schema are PostgreSQL's here.
	 * @param database the database
	 * @return whether it runs on it
	 */
	public boolean runsOn(BenchmarkDatabase database) {
		return this.databases.contains(database);
	}

	/**
	 * Whether the contender writes through a schema registry, which the suite then starts (once, on
	 * first use) and names in {@link ContenderSettings#schemaRegistryUrl()}.
	 * @return whether it needs one
	 */
	public boolean needsSchemaRegistry() {
		return this.needsSchemaRegistry;
	}

	public Contender create() {
		return this.factory.get();
	}

}
