package dev.outboxstarter.core;

import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Refuses to start on a Spring Boot the starter cannot run on, saying so, before any of its
 * auto-configurations fails on a class that version lacks. It runs as an application context
 * initializer, which every Spring Boot since 1.0 applies before the auto-configurations, and uses
 * nothing that Spring Boot 3 lacks.
 */
class SpringBootVersionCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	/** The first major version the starter runs on. */
	static final int LOWEST_MAJOR = 4;

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		check(SpringBootVersion.getVersion());
	}

	/**
	 * Checks a Spring Boot version.
	 * @param version the version, or {@code null} where the jar does not say (then nothing is checked)
	 * @throws OutboxConfigurationException when the starter cannot run on it
	 */
	static void check(@Nullable String version) {
		if (version == null || major(version) >= LOWEST_MAJOR) {
			return;
		}
		throw new OutboxConfigurationException("The outbox starter runs on Spring Boot 4.0 and later, but this "
				+ "application runs on Spring Boot " + version, "Upgrade the application to Spring Boot 4.0 or 4.1 "
						+ "(the versions the starter is tested on), or remove the outbox starter");
	}

	private static int major(String version) {
		int end = 0;
		while (end < version.length() && Character.isDigit(version.charAt(end))) {
			end++;
		}
		return (end > 0) ? Integer.parseInt(version.substring(0, end)) : LOWEST_MAJOR;
	}

}
