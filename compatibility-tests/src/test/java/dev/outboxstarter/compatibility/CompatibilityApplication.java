package dev.outboxstarter.compatibility;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application as the README has one write it: a JPA aggregate whose {@code @DomainEvents} are
 * outbox events, published to Kafka.
 */
@SpringBootApplication
class CompatibilityApplication {

}
