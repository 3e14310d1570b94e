package dev.outboxstarter.core;

import dev.outboxstarter.OutboxConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Which Spring Boot versions the starter refuses at start-up, and that it is asked before the
 * auto-configurations run.
 */
class SpringBootVersionCheckTests {

	@ParameterizedTest
	@ValueSource(strings = { "3.5.7", "3.0.0", "2.7.18" })
	void springBootBeforeFourIsRefusedNamingTheVersionFoundAndWhatToDo(String version) {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> SpringBootVersionCheck.check(version))
			.satisfies((ex) -> {
				assertThat(ex.getDescription()).isEqualTo("The outbox starter runs on Spring Boot 4.0 and later, "
						+ "but this application runs on Spring Boot " + version);
				assertThat(ex.getAction()).contains("Upgrade the application to Spring Boot 4.0 or 4.1");
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "4.0.0", "4.0.7", "4.1.1", "4.2.0-SNAPSHOT", "5.0.0-M1" })
	void springBootFourAndLaterIsAccepted(String version) {
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(version));
	}

	@Test
	void aJarThatDoesNotSayItsVersionIsNotRefused() {
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(null));
	}

	@Test
	void theRunningSpringBootIsAccepted() {
		assertThatNoException().isThrownBy(() -> SpringBootVersionCheck.check(SpringBootVersion.getVersion()));
	}

	@Test
	void everySpringApplicationAppliesTheCheck() {
		assertThat(new SpringApplication().getInitializers()).hasAtLeastOneElementOfType(SpringBootVersionCheck.class);
	}

}
