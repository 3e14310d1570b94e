package dev.outboxstarter.internal.routing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxRoute;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

public class EventRoutingTests {

	private final MockEnvironment environment = new MockEnvironment().withProperty("topics.orders", "orders-v2");

	@Test
	void annotatedEventIsRoutedWithPlaceholdersResolvedAndTheAggregateIdAsKey() {
		EventRouting routing = routing(Map.of());

		List<ResolvedRoute> routes = keyed(routing.routesFor(new Placed("ada")), "7");

		assertThat(routes).containsExactly(new ResolvedRoute("Placed", "kafka", "orders-v2", "7"));
	}

	@Test
	void keyExpressionIsEvaluatedAgainstTheEvent() {
		List<ResolvedRoute> routes = keyed(routing(Map.of()).routesFor(new Keyed("ada")), "7");

		assertThat(routes).containsExactly(new ResolvedRoute("keyed", "kafka", "customers", "ada"));
	}

	@Test
	void configuredRouteOverridesTheAnnotationAndRoutesUnannotatedTypes() {
		EventRouting routing = routing(Map.of(Placed.class.getName(), new RouteDefinition(null, null, "elsewhere", null),
				Plain.class.getName(), new RouteDefinition("plain-event", null, "plain", "name")));

		assertThat(keyed(routing.routesFor(new Placed("ada")), null))
			.containsExactly(new ResolvedRoute("Placed", "kafka", "elsewhere", null));
		assertThat(keyed(routing.routesFor(new Plain("bob")), null))
			.containsExactly(new ResolvedRoute("plain-event", "kafka", "plain", "bob"));
	}

	@Test
	void configuredRouteOfAnInterfaceAppliesToItsImplementations() {
		EventRouting routing = routing(Map.of(Marker.class.getName(), new RouteDefinition(null, null, "marked", null)));

		assertThat(keyed(routing.routesFor(new Marked()), null))
			.containsExactly(new ResolvedRoute("Marked", "kafka", "marked", null));
	}

	@Test
	void routerBeanIsAskedFirst() {
		EventRouting routing = new EventRouting(List.of((event) -> OutboxRoute.kafka("routed", "by-router", "k")), Map.of(),
				transports("kafka"), new RouteFormats(MessageFormat.OUTBOX, null), this.environment);

		assertThat(keyed(routing.routesFor(new Placed("ada")), null))
			.containsExactly(new ResolvedRoute("routed", "kafka", "by-router", "k"));
	}

	@Test
	void eventsThatDoNotOptInHaveNoRoute() {
		assertThat(keyed(routing(Map.of()).routesFor(new Plain("bob")), null)).isEmpty();
	}

	@Test
	void annotatedEventWithoutDestinationIsRefusedEveryTime() {
		EventRouting routing = routing(Map.of());

		for (int i = 0; i < 2; i++) {
			assertThatExceptionOfType(OutboxCaptureException.class).isThrownBy(() -> routing.routesFor(new NoDestination()))
				.withMessageContaining("Event 'NoDestination'")
				.withMessageContaining("outbox.routes[" + NoDestination.class.getName() + "].destination");
		}
	}

	@Test
	void routeToAnUnknownTransportIsRefused() {
		assertThatExceptionOfType(OutboxCaptureException.class).isThrownBy(() -> routing(Map.of()).routesFor(new ToUnknownTransport()))
			.withMessageContaining("routes to transport 'sqs'")
			.withMessageContaining("available: kafka, local, rabbit");
	}

	@Test
	void failingKeyExpressionNamesTheEventAndTheExpression() {
		assertThatExceptionOfType(OutboxCaptureException.class).isThrownBy(() -> routing(Map.of()).routesFor(new BadKey()))
			.withMessageContaining("Event 'BadKey'")
			.withMessageContaining("its key expression 'missing' failed")
			.withMessageContaining("outbox.routes[" + BadKey.class.getName() + "].key");
	}

	@Test
	void keyExpressionThatYieldsNullIsRefusedInsteadOfPublishingWithoutAKey() {
		EventRouting routing = routing(Map.of());

		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing.routesFor(new Keyed(null)))
			.withMessageContaining("Event 'keyed' (" + Keyed.class.getName() + ")")
			.withMessageContaining("its key expression 'customer' evaluated to null")
			.withMessageContaining("'customer ?: \"none\"'");
		assertThat(keyed(routing.routesFor(new Keyed("")), null)).as("an empty key is a key")
			.containsExactly(new ResolvedRoute("keyed", "kafka", "customers", ""));
	}

	@Test
	void keyOrDestinationLongerThanTheTableHoldsIsRefusedRatherThanCutShort() {
		EventRouting routing = routing(Map.of());

		assertThat(keyed(routing.routesFor(new Keyed("k".repeat(255))), null)).singleElement()
			.satisfies((route) -> assertThat(route.key()).hasSize(255));
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing.routesFor(new Keyed("k".repeat(256))))
			.withMessageContaining("Event 'keyed'")
			.withMessageContaining("its message key is 256 characters long, more than the 255 the outbox table's "
					+ "message_key column holds");
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing.routesFor(new PerRegion("r".repeat(300), 1)))
			.withMessageContaining("its destination is 315 characters long");
		EventRouting routedByBean = new EventRouting(List.of((event) -> OutboxRoute.kafka("long", "t".repeat(256), "k")),
				Map.of(), transports("kafka"), new RouteFormats(MessageFormat.OUTBOX, null), this.environment);
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routedByBean.routesFor(new Plain("x")))
			.withMessageContaining("its destination is 256 characters long");
	}

	@Test
	void aggregateIdLongerThanTheTableHoldsIsRefusedAsTheKeyOfARouteKeyedByIt() {
		EventRoutes routes = routing(Map.of()).routesFor(new Twice("ada"));

		assertThat(keyed(routes, "7".repeat(255))).extracting(ResolvedRoute::key)
			.containsExactly("7".repeat(255), "ada");
		assertThatExceptionOfType(OutboxCaptureException.class).isThrownBy(() -> keyed(routes, "7".repeat(256)))
			.withMessageContaining("Event 'twice'")
			.withMessageContaining("its message key is 256 characters long, more than the 255 the outbox table's "
					+ "message_key column holds");
	}

	@Test
	void keyExpressionThatDoesNotParseIsRefusedNamingItsAttribute() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new UnparsableKey("x")))
			.withMessageContaining("Event 'UnparsableKey'")
			.withMessageContaining("has an invalid key expression 'customer +'")
			.withMessageContaining("outbox.routes[" + UnparsableKey.class.getName() + "].key");
	}

	@Test
	void placeholderThatNoPropertyResolvesIsRefusedNamingTheEvent() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new UnresolvedPlaceholder()))
			.withMessageContaining("Event 'UnresolvedPlaceholder' (" + UnresolvedPlaceholder.class.getName() + ")")
			.withMessageContaining("topics.missing")
			.withMessageContaining("set the property");
	}

	@Test
	void configuredRouteOfAClassThatDoesNotExistFailsNamingTheProperty() {
		assertThatIllegalStateException()
			.isThrownBy(() -> routing(Map.of("com.acme.Nowhere", new RouteDefinition(null, null, "t", null))))
			.withMessageContaining("outbox.routes[com.acme.Nowhere] names no class on the classpath");
	}

	@Test
	void configuredRouteToATransportThatDoesNotExistFailsNamingTheProperty() {
		assertThatIllegalStateException()
			.isThrownBy(() -> routing(Map.of(Plain.class.getName(), new RouteDefinition(null, "sqs", "t", null))))
			.withMessageContaining("outbox.routes[" + Plain.class.getName() + "] routes to transport 'sqs'")
			.withMessageContaining("available: kafka, local, rabbit");
	}

	@Test
	void configuredKeyThatDoesNotParseFailsNamingTheProperty() {
		assertThatIllegalStateException()
			.isThrownBy(() -> routing(Map.of(Plain.class.getName(), new RouteDefinition(null, null, "t", "name +"))))
			.withMessageContaining("outbox.routes[" + Plain.class.getName() + "].key 'name +' is not a valid SpEL expression");
	}

	@Test
	void configuredRouteOfANestedClassWrittenWithADotApplies() {
		EventRouting routing = routing(Map.of(EventRoutingTests.class.getName() + ".Plain",
				new RouteDefinition(null, null, "plain", null)));

		assertThat(keyed(routing.routesFor(new Plain("bob")), null))
			.containsExactly(new ResolvedRoute("Plain", "kafka", "plain", null));
	}

	@Test
	void repeatedAnnotationsRouteToEachDestination() {
		assertThat(keyed(routing(Map.of()).routesFor(new Twice("ada")), "7")).containsExactly(
				new ResolvedRoute("twice", "kafka", "orders", "7"),
				new ResolvedRoute("twice", "rabbit", "partners/order.twice", "ada"));
	}

	@Test
	void configuredRouteReplacesTheAnnotationOfItsTransportOnly() {
		EventRouting routing = routing(Map.of(Twice.class.getName(), new RouteDefinition(null, "rabbit", "other/key", null)));

		assertThat(keyed(routing.routesFor(new Twice("ada")), "7")).containsExactly(
				new ResolvedRoute("twice", "kafka", "orders", "7"), new ResolvedRoute("twice", "rabbit", "other/key", "ada"));
	}

	@Test
	void configuredRouteOfAnotherTransportIsAnAdditionalDestination() {
		EventRouting routing = routing(Map.of(Placed.class.getName(), new RouteDefinition(null, "local", "audit", null)));

		assertThat(keyed(routing.routesFor(new Placed("ada")), "7")).containsExactly(
				new ResolvedRoute("Placed", "kafka", "orders-v2", "7"), new ResolvedRoute("Placed", "local", "audit", "7"));
	}

	@Test
	void destinationExpressionsAreEvaluatedForEachEvent() {
		EventRouting routing = routing(Map.of());

		assertThat(keyed(routing.routesFor(new PerRegion("eu", 1)), null))
			.containsExactly(new ResolvedRoute("PerRegion", "rabbit", "orders/order.eu.1", null));
		assertThat(keyed(routing.routesFor(new PerRegion("us", 2)), null))
			.containsExactly(new ResolvedRoute("PerRegion", "rabbit", "orders/order.us.2", null));
	}

	@Test
	void destinationExpressionThatYieldsNothingIsRefused() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new EmptyDestination(null)))
			.withMessageContaining("Event 'EmptyDestination'")
			.withMessageContaining("#{name} evaluated to null")
			.withMessageContaining("#{name ?: 'other'}");
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new EmptyDestination("")))
			.withMessageContaining("#{name} evaluated to an empty value");
	}

	@Test
	void destinationExpressionThatYieldsNothingInsideATemplateIsRefusedRatherThanLeaveAnotherDestination() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new PerRegion(null, 1)))
			.withMessageContaining("Event 'PerRegion'")
			.withMessageContaining("its destination 'orders/order.#{region}.#{number}' cannot be resolved, "
					+ "#{region} evaluated to null");
	}

	@Test
	void routerBeanCanRouteToSeveralDestinations() {
		OutboxEventRouter router = new OutboxEventRouter() {

			@Override
			public OutboxRoute route(Object event) {
				return null;
			}

			@Override
			public List<OutboxRoute> routes(Object event) {
				return List.of(OutboxRoute.kafka("both", "topic", null), OutboxRoute.rabbit("both", "ex", "rk", "k"));
			}

		};
		EventRouting routing = new EventRouting(List.of(router), Map.of(), transports("kafka", "rabbit"),
				new RouteFormats(MessageFormat.OUTBOX, null), this.environment);

		assertThat(keyed(routing.routesFor(new Plain("x")), "3")).containsExactly(
				new ResolvedRoute("both", "kafka", "topic", "3"), new ResolvedRoute("both", "rabbit", "ex/rk", "k"));
	}

	@Test
	void cloudEventsFormatIsRecordedInTheStoredHeadersByAnnotationRoutePropertyOrGlobalDefault() {
		Map<String, String> cloudEvent = Map.of("ce_specversion", "1.0", "ce_source", "/orders");
		EventRouting outboxByDefault = cloudEventRouting(MessageFormat.OUTBOX,
				Map.of(Plain.class.getName(), new RouteDefinition(null, null, "plain", null, "cloud-events")));

		assertThat(formatHeaders(outboxByDefault, new AsCloudEvent())).isEqualTo(cloudEvent);
		assertThat(formatHeaders(outboxByDefault, new Plain("x"))).isEqualTo(cloudEvent);
		assertThat(formatHeaders(outboxByDefault, new Placed("x"))).isEmpty();

		EventRouting cloudEventsByDefault = cloudEventRouting(MessageFormat.CLOUDEVENTS, Map.of());
		assertThat(formatHeaders(cloudEventsByDefault, new Placed("x"))).isEqualTo(cloudEvent);
		assertThat(formatHeaders(cloudEventsByDefault, new AsOutbox())).isEmpty();
	}

	private static Map<String, String> formatHeaders(EventRouting routing, Object event) {
		return routing.routesFor(event).routes().get(0).formatHeaders();
	}

	@Test
	void routerRouteInTheCloudEventsFormatRecordsItAndOneWithoutAFormatTakesTheDefault() {
		OutboxEventRouter router = (event) -> OutboxRoute.kafka("routed", "t", "k");
		OutboxEventRouter cloudEvents = (event) -> OutboxRoute.kafka("routed", "t", "k")
			.withFormat(MessageFormat.CLOUDEVENTS);

		assertThat(new EventRouting(List.of(cloudEvents), Map.of(), transports("kafka"),
				new RouteFormats(MessageFormat.OUTBOX, "/orders"), this.environment)
			.routesFor(new Plain("x"))
			.routes()
			.get(0)
			.formatHeaders()).containsEntry("ce_source", "/orders");
		assertThat(new EventRouting(List.of(router), Map.of(), transports("kafka"),
				new RouteFormats(MessageFormat.CLOUDEVENTS, "/orders"), this.environment)
			.routesFor(new Plain("x"))
			.routes()
			.get(0)
			.formatHeaders()).containsEntry("ce_specversion", "1.0");
	}

	@Test
	void formatThatDoesNotExistIsRefusedNamingTheValueAndTheChoices() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new UnknownFormat()))
			.withMessageStartingWith("Event 'UnknownFormat' (" + UnknownFormat.class.getName() + ") asks for the "
					+ "message format 'xml', which does not exist: use 'outbox' or 'cloudevents'");
		assertThatIllegalStateException()
			.isThrownBy(() -> routing(Map.of(Plain.class.getName(), new RouteDefinition(null, null, "t", null, "avro"))))
			.withMessage("outbox.routes[" + Plain.class.getName() + "].format 'avro' is not a message format. Use "
					+ "'outbox' or 'cloudevents'");
	}

	@Test
	void cloudEventsWithoutASourceAreRefusedSayingHowToSetOne() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new AsCloudEvent()))
			.withMessageContaining("is published as a CloudEvent, which needs a source")
			.withMessageContaining("set outbox.cloudevents.source (e.g. /orders), or spring.application.name");
		assertThatIllegalStateException()
			.isThrownBy(() -> routing(
					Map.of(Plain.class.getName(), new RouteDefinition(null, null, "t", null, "cloudevents"))))
			.withMessageStartingWith("outbox.routes[" + Plain.class.getName() + "].format=cloudevents needs a "
					+ "CloudEvents source");
		assertThatIllegalStateException()
			.isThrownBy(() -> new EventRouting(List.of(), Map.of(), transports("kafka"),
					new RouteFormats(MessageFormat.CLOUDEVENTS, null), this.environment))
			.withMessageStartingWith("outbox.message-format=cloudevents needs a CloudEvents source");
	}

	@Test
	void annotatedDelayIsTheDelayOfTheRouteAndAConfiguredOneReplacesIt() {
		ResolvedRoute annotated = routing(Map.of()).routesFor(new Reminder("a")).routes().get(0);
		assertThat(annotated.delay()).isEqualTo(Duration.ofMinutes(15));
		assertThat(annotated.delayHoldsKey()).isFalse();

		ResolvedRoute configured = routing(Map.of(Reminder.class.getName(),
				new RouteDefinition(null, null, null, null, null, Duration.ofSeconds(30), true)))
			.routesFor(new Reminder("a"))
			.routes()
			.get(0);
		assertThat(configured.delay()).isEqualTo(Duration.ofSeconds(30));
		assertThat(configured.delayHoldsKey()).isTrue();
		assertThat(configured.destination()).isEqualTo("reminders");
	}

	@Test
	void eventWithoutADelayIsPublishedAtOnce() {
		ResolvedRoute route = routing(Map.of()).routesFor(new Placed("bob")).routes().get(0);
		assertThat(route.delay()).isNull();
	}

	@Test
	void annotatedDelayThatIsNotADurationIsRefusedNamingTheEventAndTheValue() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new UnparsableDelay("a")))
			.withMessageContaining("Event 'UnparsableDelay' (" + UnparsableDelay.class.getName() + ")")
			.withMessageContaining("@OutboxEvent(delay = \"soon\"), which is not a duration")
			.withMessageContaining("PT15M");
	}

	@Test
	void annotatedNegativeDelayIsRefusedNamingTheEvent() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> routing(Map.of()).routesFor(new NegativeDelay("a")))
			.withMessageContaining("Event 'NegativeDelay'")
			.withMessageContaining("@OutboxEvent(delay = \"-PT1M\"), a negative delay");
	}

	@Test
	void configuredNegativeDelayFailsNamingTheProperty() {
		assertThatIllegalStateException()
			.isThrownBy(() -> routing(Map.of(Plain.class.getName(),
					new RouteDefinition(null, null, "t", null, null, Duration.ofMinutes(-1), null))))
			.withMessageContaining("outbox.routes[" + Plain.class.getName() + "].delay is PT-1M, a negative delay");
	}

	private EventRouting cloudEventRouting(MessageFormat defaultFormat, Map<String, RouteDefinition> configured) {
		return new EventRouting(List.of(), configured, transports("kafka", "rabbit", "local"),
				new RouteFormats(defaultFormat, "/orders"), this.environment);
	}

	private EventRouting routing(Map<String, RouteDefinition> configured) {
		return new EventRouting(List.of(), configured, transports("kafka", "rabbit", "local"),
				new RouteFormats(MessageFormat.OUTBOX, null), this.environment);
	}

	private static RoutableTransports transports(String... names) {
		return RoutableTransports.all(Set.of(names), "kafka");
	}

	/**
	 * The routes with the keys the capture gives their events: a route without one of its own, the
	 * aggregate's id.
	 */
	private static List<ResolvedRoute> keyed(EventRoutes routes, @Nullable String aggregateId) {
		return routes.routes()
			.stream()
			.map((route) -> new ResolvedRoute(route.eventType(), route.transport(), route.destination(),
					routes.keyOf(route, aggregateId), route.formatHeaders()))
			.toList();
	}

	@OutboxEvent(type = "twice", destination = "orders")
	@OutboxEvent(type = "twice", transport = "rabbit", destination = "partners/order.twice", key = "customer")
	record Twice(String customer) {
	}

	@OutboxEvent(transport = "rabbit", destination = "orders/order.#{region}.#{number}")
	record PerRegion(String region, int number) {
	}

	@OutboxEvent(destination = "#{name}")
	record EmptyDestination(String name) {
	}

	@OutboxEvent(destination = "reminders", delay = "PT15M")
	record Reminder(String id) {
	}

	@OutboxEvent(destination = "reminders", delay = "soon")
	record UnparsableDelay(String id) {
	}

	@OutboxEvent(destination = "reminders", delay = "-PT1M")
	record NegativeDelay(String id) {
	}

	@OutboxEvent(destination = "${topics.orders}")
	record Placed(String customer) {
	}

	@OutboxEvent(destination = "orders", format = "cloudevents")
	record AsCloudEvent() {
	}

	@OutboxEvent(destination = "orders", format = "OUTBOX")
	record AsOutbox() {
	}

	@OutboxEvent(destination = "orders", format = "xml")
	record UnknownFormat() {
	}

	@OutboxEvent(type = "keyed", destination = "customers", key = "customer")
	record Keyed(String customer) {
	}

	record Plain(String name) {
	}

	interface Marker {
	}

	record Marked() implements Marker {
	}

	@OutboxEvent
	record NoDestination() {
	}

	@OutboxEvent(destination = "queue", transport = "sqs")
	record ToUnknownTransport() {
	}

	@OutboxEvent(destination = "topic", key = "missing")
	record BadKey() {
	}

	@OutboxEvent(destination = "topic", key = "customer +")
	record UnparsableKey(String customer) {
	}

	@OutboxEvent(destination = "${topics.missing}")
	record UnresolvedPlaceholder() {
	}

}
