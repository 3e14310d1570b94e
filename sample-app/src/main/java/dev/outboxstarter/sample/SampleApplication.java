package dev.outboxstarter.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An orders service that publishes its domain events through the transactional outbox.
 * <p>
 * With no profile it needs nothing outside the JVM: an in-memory H2 database and an in-JVM Kafka
 * broker (see {@link dev.outboxstarter.sample.kafka.EmbeddedKafkaInitializer}). The {@code postgres}
 * profile uses a PostgreSQL database, the {@code kafka} profile an external broker.
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
