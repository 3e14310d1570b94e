package dev.outboxstarter.benchmarks.contenders.starteravro;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.schemaregistry.SchemaRegistryProperties;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The starter's application with its event as an Avro record ({@link OrderPlaced}, generated from
 * {@code src/main/avro/OrderPlaced.avsc}, routed by the {@code @OutboxEvent} Avro puts on it with
 * {@code payloadFormat = "avro"}), written through {@code outbox-schema-registry}'s serializer against a
 * schema registry: the same business insert and {@link Outbox#publish} in one transaction.
 */
@SpringBootApplication
public class StarterAvroApplication {

	@Service
	public static class Orders {

		private final JdbcTemplate jdbc;

		private final Outbox outbox;

		Orders(JdbcTemplate jdbc, Outbox outbox) {
			this.jdbc = jdbc;
			this.outbox = outbox;
		}

		@Transactional
		public void place(String key, String payload) {
			this.jdbc.update("INSERT INTO bench_order (order_key) VALUES (?)", key);
			this.outbox.publish(OrderPlaced.newBuilder().setKey(key).setPayload(payload).build());
		}

	}

	/**
	 * The Avro serializer that calls Apicurio's on the writer's own thread, in place of the module's, for
	 * {@code bench.avro.writers-thread=true}: the module's backs off when an application defines one.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty("bench.avro.writers-thread")
	static class WritersThreadSerializerConfiguration {

		@Bean
		WritersThreadAvroSerializer writersThreadAvroSerializer(SchemaRegistryProperties properties) {
			return new WritersThreadAvroSerializer(properties);
		}

	}

}
