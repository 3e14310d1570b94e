package dev.outboxstarter.sample;

import org.springframework.boot.SpringApplication;

/**
 * Runs the sample against PostgreSQL and Kafka in containers (Docker needed):
 * {@code ../mvnw spring-boot:test-run} from {@code sample-app}. The containers' connection details
 * replace the embedded defaults through {@code @ServiceConnection}.
 */
public class TestSampleApplication {

	public static void main(String[] args) {
		SpringApplication.from(SampleApplication::main)
			.with(SampleContainers.class)
			.withAdditionalProfiles("containers")
			.run(args);
	}

}
