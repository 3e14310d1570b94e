package dev.outboxstarter.benchmarks;

import org.jspecify.annotations.Nullable;

/**
 * Where a contender finds its database and broker.
 *
 * @param jdbcUrl the database's URL ({@link BenchmarkDatabase}), with the contender's own schema as the
 * connections' schema
 * @param username the database user
 * @param schema the contender's schema (created empty before it starts)
 * @param bootstrapServers the Kafka address the contender publishes to (possibly a forwarder that is
 * closed, for an outage)
 * @param topic the topic
 * @param maxBlockMillis the producers' {@code max.block.ms}: how long a send waits for metadata of an
 * unreachable broker (the same for every contender)
 * @param schemaRegistryUrl the API of the schema registry the suite started, for a contender that
 * {@link Contenders#needsSchemaRegistry() needs one}, else {@code null}
 */
public record ContenderSettings(String jdbcUrl, String username, String schema, String bootstrapServers,
		String topic, long maxBlockMillis, @Nullable String schemaRegistryUrl) {
}
