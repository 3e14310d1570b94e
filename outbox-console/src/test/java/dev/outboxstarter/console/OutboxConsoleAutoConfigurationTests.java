package dev.outboxstarter.console;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.console.OutboxConsoleEndpoint.Overview;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * The console exists where its endpoint is exposed and not switched off, acts only where its access is
 * granted, and refuses bad settings naming the property.
 */
class OutboxConsoleAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
				OutboxConsoleAutoConfiguration.class))
		.withBean(OutboxMonitoring.class, OutboxConsoleAutoConfigurationTests::monitoring)
		.withBean(OutboxAdministration.class, () -> mock(OutboxAdministration.class))
		.withBean(DeadEvents.class, () -> mock(DeadEvents.class));

	@Test
	void consoleExistsOnlyWhereItsEndpointIsExposedAndNotSwitchedOff() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(OutboxConsoleEndpoint.class)
			.doesNotHaveBean(MeterHistory.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=outboxconsole")
			.run((context) -> assertThat(context).hasSingleBean(OutboxConsoleEndpoint.class)
				.hasSingleBean(MeterHistory.class));
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=outboxconsole",
					"management.endpoint.outboxconsole.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(OutboxConsoleEndpoint.class));
	}

	@Test
	void consoleIsReadOnlyUnlessItsAccessIsUnrestrictedAndThenForOperatorsOnly() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=outboxconsole").run((context) -> {
			Overview overview = overview(context.getBean(OutboxConsoleEndpoint.class), user("ops", "OPERATOR"));
			assertThat(overview.actionsAllowed()).isFalse();
			assertThat(overview.actionsRefusal()).contains("management.endpoint.outboxconsole.access");
		});
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=outboxconsole",
					"management.endpoint.outboxconsole.access=UNRESTRICTED",
					"management.endpoint.outboxconsole.operator-roles=OPERATOR")
			.run((context) -> {
				OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
				assertThat(overview(console, user("ops", "OPERATOR")).actionsAllowed()).isTrue();
				assertThat(overview(console, user("guest", "VIEWER")).actionsRefusal())
					.isEqualTo("User 'guest' has none of the operator roles [OPERATOR]");
				assertThat(overview(console, SecurityContext.NONE).actionsRefusal())
					.isEqualTo("Sign in as an operator to act");
				assertThat(console.retry(UUID.randomUUID(), user("guest", "VIEWER")).getStatus())
					.isEqualTo(403);
			});
	}

	@Test
	void valuesAreShownAndSearchedForAsTheOutboxEndpointsRuleAllows() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=outboxconsole",
					"management.endpoint.outbox.show-values=when-authorized", "management.endpoint.outbox.roles=AUDITOR")
			.run((context) -> {
				OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
				assertThat(overview(console, user("auditor", "AUDITOR")).valuesShown()).isTrue();
				assertThat(overview(console, user("ops", "OPERATOR")).valuesShown()).isFalse();
				assertThat(overview(console, SecurityContext.NONE).valuesShown()).isFalse();
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> console.view("events", null, null, null, "order-42", null, null, null, null, null,
							null, user("ops", "OPERATOR")))
					.withMessageContaining("may search by key or aggregate id");
			});
	}

	@Test
	void historyOfMoreSamplesThanItKeepsIsRefusedNamingTheProperty() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=outboxconsole",
					"management.endpoint.outboxconsole.sample-interval=100ms",
					"management.endpoint.outboxconsole.history=1h")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("management.endpoint.outboxconsole.history: PT1H is not between one and 10000 "
						+ "sample intervals (PT0.1S)"));
	}

	private static Overview overview(OutboxConsoleEndpoint console, SecurityContext securityContext) {
		return (Overview) console.view("overview", null, null, null, null, null, null, null, null, null, null,
				securityContext);
	}

	private static OutboxMonitoring monitoring() {
		OutboxMonitoring monitoring = mock(OutboxMonitoring.class);
		given(monitoring.readBacklog()).willReturn(new BacklogReading(0, null, 0, Instant.now()));
		given(monitoring.relayMode()).willReturn("polling");
		given(monitoring.transports()).willReturn(Set.of("kafka"));
		given(monitoring.countByStatus()).willReturn(List.of());
		given(monitoring.countDead()).willReturn(List.of());
		given(monitoring.unavailableTransports()).willReturn(Set.of());
		given(monitoring.pausedDestinations()).willReturn(List.of());
		return monitoring;
	}

	private static SecurityContext user(String name, String role) {
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return () -> name;
			}

			@Override
			public boolean isUserInRole(String asked) {
				return asked.equals(role);
			}

		};
	}

}
