package dev.outboxstarter.console;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.console.OutboxConsoleEndpoint.EventDetail;
import dev.outboxstarter.console.OutboxConsoleEndpoint.EventRow;
import dev.outboxstarter.console.OutboxConsoleEndpoint.EventsPage;
import dev.outboxstarter.console.OutboxConsoleEndpoint.Overview;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import dev.outboxstarter.testsupport.TwoEmbeddedDataSources;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The console of an application with an outbox on each of two data sources, two embedded H2 databases:
 * every read takes the outbox by name, reads the primary data source's without one, and refuses a name
 * that is no outbox's, naming those there are. Delivery is off, so what capture writes stays pending.
 */
class OtherOutboxesConsoleTests {

	private static final Class<?> VALUES_VISIBILITY = ClassUtils
		.resolveClassName("dev.outboxstarter.actuate.OutboxValuesVisibilityAutoConfiguration", null);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
				EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class, OutboxAutoConfiguration.class,
				StarterAutoConfigurations.KAFKA, VALUES_VISIBILITY, OutboxConsoleAutoConfiguration.class))
		.withUserConfiguration(TwoEmbeddedDataSources.class)
		.withPropertyValues("outbox.routes[java.lang.String].destination=strings", "outbox.fast-path.enabled=false",
				"outbox.relay.enabled=false", "management.endpoints.web.exposure.include=outboxconsole",
				"outbox.backlog.refresh-interval=50ms", "management.endpoint.outbox.show-values=always");

	@Test
	void overviewReadsTheOutboxNamedThePrimaryOneByDefaultAndListsThemAll() {
		this.runner.run((context) -> {
			publishIn(context, "transactionManager", "order placed");
			publishIn(context, "billingTransactionManager", "invoice sent");
			publishIn(context, "billingTransactionManager", "invoice paid");
			OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);

			// The backlog is the monitor's latest reading, taken every outbox.backlog.refresh-interval.
			Overview primary = await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> overview(console, null), (overview) -> overview.pending() > 0);
			Overview billing = await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> overview(console, "billingDataSource"), (overview) -> overview.pending() > 0);

			assertThat(primary.outbox()).isEqualTo("dataSource");
			assertThat(primary.outboxes()).containsExactly("dataSource", "billingDataSource");
			assertThat(primary.pending()).isOne();
			assertThat(primary.events()).extracting(EventCount::status, EventCount::events)
				.containsExactly(tuple(EventStatus.PENDING, 1L));
			assertThat(billing.outbox()).isEqualTo("billingDataSource");
			assertThat(billing.outboxes()).containsExactly("dataSource", "billingDataSource");
			assertThat(billing.pending()).isEqualTo(2);
			assertThat(billing.events()).extracting(EventCount::status, EventCount::events)
				.containsExactly(tuple(EventStatus.PENDING, 2L));
			assertThat(overview(console, "dataSource").pending()).as("the primary one by its name").isOne();
		});
	}

	@Test
	void eventsAreFoundAndOpenedInTheOutboxNamed() {
		this.runner.run((context) -> {
			publishIn(context, "transactionManager", "order placed");
			publishIn(context, "billingTransactionManager", "invoice sent");
			OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);

			EventRow order = events(console, null).events().get(0);
			List<EventRow> billing = events(console, "billingDataSource").events();

			assertThat(events(console, null).events()).singleElement().isEqualTo(order);
			assertThat(events(console, "dataSource").events()).containsExactly(order);
			assertThat(billing).singleElement().satisfies((event) -> {
				assertThat(event.eventType()).isEqualTo("String");
				assertThat(event.destination()).isEqualTo("strings");
				assertThat(event.id()).isNotEqualTo(order.id());
			});
			UUID invoice = billing.get(0).id();
			assertThat(payload(console.event("events", order.id(), null, SecurityContext.NONE)))
				.contains("order placed");
			assertThat(payload(console.event("events", invoice, "billingDataSource", SecurityContext.NONE)))
				.contains("invoice sent");
			assertThat(console.event("events", invoice, null, SecurityContext.NONE).getStatus())
				.as("the invoice's event is not in the primary outbox")
				.isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
		});
	}

	@Test
	void anUnknownOutboxIsRefusedNamingTheOutboxesThereAre() {
		this.runner.run((context) -> {
			OutboxConsoleEndpoint console = context.getBean(OutboxConsoleEndpoint.class);
			String refusal = "'invoices' is not an outbox: use one of [dataSource, billingDataSource]";

			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> overview(console, "invoices"))
				.withMessage(refusal);
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> events(console, "invoices"))
				.withMessage(refusal);
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> console.event("events", UUID.randomUUID(), "invoices", SecurityContext.NONE))
				.withMessage(refusal);
		});
	}

	private static Overview overview(OutboxConsoleEndpoint console, @Nullable String outbox) {
		return (Overview) console.view("overview", null, null, null, null, null, null, null, null, null, null, outbox,
				SecurityContext.NONE);
	}

	private static EventsPage events(OutboxConsoleEndpoint console, @Nullable String outbox) {
		return (EventsPage) console.view("events", null, null, null, null, null, null, null, null, null, null, outbox,
				SecurityContext.NONE);
	}

	private static String payload(WebEndpointResponse<EventDetail> response) {
		assertThat(response.getStatus()).isEqualTo(WebEndpointResponse.STATUS_OK);
		EventDetail detail = response.getBody();
		assertThat(detail.payload()).isNotNull();
		return detail.payload().value();
	}

	private static void publishIn(AssertableWebApplicationContext context, String transactionManager, String event) {
		new TransactionTemplate(context.getBean(transactionManager, PlatformTransactionManager.class))
			.executeWithoutResult((status) -> context.getBean(Outbox.class).publish(event));
	}

}
