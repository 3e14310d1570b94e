package dev.outboxstarter.faults;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application each instance of the fault suite runs: counters whose every increment raises an
 * outbox event. It scans only its own package.
 */
@SpringBootApplication
public class FaultApplication {

}
