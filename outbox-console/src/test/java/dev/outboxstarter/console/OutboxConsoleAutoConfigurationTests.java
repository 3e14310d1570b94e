package dev.outboxstarter.console;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.console.OutboxConsoleEndpoint.ActionResult;
import dev.outboxstarter.console.OutboxConsoleEndpoint.Overview;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.BacklogSnapshot;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;

/**
 * The console exists where its endpoint is exposed and not switched off, acts only where its access is
 * granted, on events chosen by criteria the user may use, and refuses bad settings naming the property;
 * its overview costs the table no more than a few counts every few seconds, however many pages are open.
 */
@ExtendWith(OutputCaptureExtension.class)
class OutboxConsoleAutoConfigurationTests {

	/** The starter's rule for values, which the console applies. */
	private static final Class<?> VALUES_VISIBILITY = ClassUtils
		.resolveClassName("dev.outboxstarter.actuate.OutboxValuesVisibilityAutoConfiguration", null);

	private static final String[] OPERATORS_ACT = { "management.endpoints.web.exposure.include=outboxconsole",
			"management.endpoint.outboxconsole.access=UNRESTRICTED",
			"management.endpoint.outboxconsole.operator-roles=OPERATOR" };

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
				VALUES_VISIBILITY, OutboxConsoleAutoConfiguration.class))
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
							null, null, user("ops", "OPERATOR")))
					.withMessageContaining("may search by key or aggregate id");
			});
	}

	@Test
	void bulkActionsByKeyOrAggregateIdAreRefusedToOperatorsWhoDoNotSeeValuesAndLoggedWithoutThem(
			CapturedOutput output) {
		this.runner.withPropertyValues(OPERATORS_ACT)
			.withPropertyValues("management.endpoint.outbox.show-values=when-authorized",
					"management.endpoint.outbox.roles=AUDITOR")
			.run((context) -> {
					OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
					OutboxAdministration administration = context.getBean(OutboxAdministration.class);

					WebEndpointResponse<ActionResult> byKey = console.actOnMatching("retry-dead", null, null,
							"order-42", null, null, null, null, null, null, user("ops", "OPERATOR"));
					WebEndpointResponse<ActionResult> byAggregate = console.actOnMatching("republish", "OrderPlaced",
							null, null, "Order", "order-42", null, null, null, null, user("ops", "OPERATOR"));

					assertThat(byKey.getStatus()).isEqualTo(400);
					assertThat(byKey.getBody().message()).startsWith("The key criterion is refused")
						.contains("management.endpoint.outbox.show-values");
					assertThat(byAggregate.getStatus()).isEqualTo(400);
					assertThat(byAggregate.getBody().message()).startsWith("The aggregateId criterion is refused");
					then(administration).shouldHaveNoInteractions();
					assertThat(output.getAll()).contains("Outbox console: retry-dead of DEAD events matching "
							+ "{key=(hidden)} refused to 'ops'")
						.doesNotContain("order-42");

					console.actOnMatching("retry-dead", null, null, "order-42", null, null, null, null, null, null,
							user("auditor", "OPERATOR", "AUDITOR"));
					then(administration).should()
						.retryDead(new EventQuery(null, null, null, "order-42", null, null, null, null));
					assertThat(output.getAll()).contains("Outbox console: 'auditor' took action retry-dead on DEAD "
							+ "events matching {key=order-42}");
				});
	}

	@Test
	void bulkActionsWithoutCriteriaAreRefusedUnlessTheyAskForAllEvents() {
		this.runner.withPropertyValues(OPERATORS_ACT).run((context) -> {
			OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
			OutboxAdministration administration = context.getBean(OutboxAdministration.class);

			WebEndpointResponse<ActionResult> retry = console.actOnMatching("retry-dead", null, " ", null, null, null,
					null, null, null, null, user("ops", "OPERATOR"));
			WebEndpointResponse<ActionResult> republish = console.actOnMatching("republish", null, null, null, null,
					null, null, null, "orders-replay", false, user("ops", "OPERATOR"));

			assertThat(retry.getStatus()).isEqualTo(400);
			assertThat(retry.getBody().message()).isEqualTo("No criterion: retry-dead would act on every DEAD event "
					+ "of the table. Give a type, destination, key, aggregateType, aggregateId, from or to, or "
					+ "\"all\": true to mean all of them");
			assertThat(republish.getStatus()).isEqualTo(400);
			assertThat(republish.getBody().message()).contains("every PUBLISHED event of the table");
			then(administration).shouldHaveNoInteractions();

			assertThat(console.actOnMatching("retry-dead", null, null, null, null, null, null, null, null, true,
					user("ops", "OPERATOR"))
				.getStatus()).isEqualTo(200);
			then(administration).should().retryDead(EventQuery.all());
		});
	}

	@Test
	void republishTheEventsTransportRefusesIsABadRequestSayingWhy() {
		this.runner.withPropertyValues(OPERATORS_ACT).run((context) -> {
			OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
			given(context.getBean(OutboxAdministration.class).republish(any(), eq("orders-replay"), anyInt()))
				.willThrow(new IllegalArgumentException("RabbitMQ destination 'orders-replay' is not of the shape "
						+ "<exchange>/<routing key>"));

			WebEndpointResponse<ActionResult> republish = console.actOnMatching("republish", "OrderPlaced", null,
					null, null, null, null, null, "orders-replay", null, user("ops", "OPERATOR"));

			assertThat(republish.getStatus()).isEqualTo(400);
			assertThat(republish.getBody().message())
				.isEqualTo("RabbitMQ destination 'orders-replay' is not of the shape <exchange>/<routing key>");
		});
	}

	@Test
	void overviewTakesTheBacklogFromTheMonitorAndReadsTheCountsOncePerFewSecondsUntilAnActionChangesThem() {
		this.runner.withPropertyValues(OPERATORS_ACT).run((context) -> {
			OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
			OutboxMonitoring monitoring = context.getBean(OutboxMonitoring.class);
			BacklogReading reading = new BacklogReading(7, Instant.now().minusSeconds(3), 2, Instant.now(), 5);
			given(monitoring.latestBacklog()).willReturn(new BacklogSnapshot(reading, Instant.now(), null,
					Duration.ZERO));

			Overview first = overview(console, user("ops", "OPERATOR"));
			overview(console, user("other", "OPERATOR"));

			assertThat(first.pending()).isEqualTo(7);
			assertThat(first.scheduled()).isEqualTo(5);
			assertThat(first.dead()).isEqualTo(2);
			then(monitoring).should(never()).readBacklog();
			then(monitoring).should(times(1)).countByStatus();
			then(monitoring).should(times(1)).countDead();

			console.discard(UUID.randomUUID(), user("ops", "OPERATOR"));
			overview(console, user("ops", "OPERATOR"));
			then(monitoring).should(times(2)).countByStatus();
			then(monitoring).should(times(2)).countDead();
		});
	}

	@Test
	void overviewReadsTheBacklogFromTheTableWhereNoMonitorRuns() {
		this.runner.withPropertyValues(OPERATORS_ACT).run((context) -> {
			OutboxMonitoring monitoring = context.getBean(OutboxMonitoring.class);
			given(monitoring.readBacklog()).willReturn(new BacklogReading(4, null, 0, Instant.now(), 1));

			Overview overview = overview(context.getBean(OutboxConsoleEndpoint.class), SecurityContext.NONE);

			assertThat(overview.pending()).isEqualTo(4);
			assertThat(overview.scheduled()).isEqualTo(1);
			assertThat(overview.outbox()).isEqualTo("dataSource");
			assertThat(overview.outboxes()).as("one outbox, no choice").isEmpty();
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
		return (Overview) console.view("overview", null, null, null, null, null, null, null, null, null, null, null,
				securityContext);
	}

	private static OutboxMonitoring monitoring() {
		OutboxMonitoring monitoring = mock(OutboxMonitoring.class);
		given(monitoring.name()).willReturn("dataSource");
		given(monitoring.readBacklog()).willReturn(new BacklogReading(0, null, 0, Instant.now()));
		given(monitoring.relayMode()).willReturn("polling");
		given(monitoring.transports()).willReturn(Set.of("kafka"));
		given(monitoring.countByStatus()).willReturn(List.of());
		given(monitoring.countDead()).willReturn(List.of());
		given(monitoring.unavailableTransports()).willReturn(Set.of());
		given(monitoring.pausedDestinations()).willReturn(List.of());
		return monitoring;
	}

	private static SecurityContext user(String name, String... roles) {
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return () -> name;
			}

			@Override
			public boolean isUserInRole(String asked) {
				return List.of(roles).contains(asked);
			}

		};
	}

}
