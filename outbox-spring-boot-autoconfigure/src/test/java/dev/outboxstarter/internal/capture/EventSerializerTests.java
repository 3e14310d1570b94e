package dev.outboxstarter.internal.capture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.internal.routing.EventRouting;
import dev.outboxstarter.internal.routing.RoutableTransports;
import dev.outboxstarter.internal.routing.RouteDefinition;
import dev.outboxstarter.internal.routing.RouteFormats;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Which format each route of an event is serialized in, and how a payload in a binary format is stored.
 */
class EventSerializerTests {

	/** Kafka and RabbitMQ send binary payloads; the local transport takes JSON only. */
	private static final Predicate<String> BINARY_TRANSPORTS = Set.of("kafka", "rabbit")::contains;

	private final JsonMapper json = new JsonMapper();

	private final TaggedFormat tagged = new TaggedFormat();

	private final EventSerializer serializer = new EventSerializer(this.json, 1024, List.of(this.tagged), "json", BINARY_TRANSPORTS);

	@Test
	void eventsAreJsonByDefaultAndTheirRowsHaveNoContentType() {
		assertThat(rowsOf(this.serializer, new PlainRouted("a"), Map.of())).singleElement().satisfies((row) -> {
			assertThat(row.payload()).isEqualTo("{\"id\":\"a\"}");
			assertThat(row.contentType()).isNull();
			assertThat(row.headers()).doesNotContainKey(OutboxHeaders.PAYLOAD_SCHEMA);
		});
		assertThat(this.tagged.targets).isEmpty();
	}

	@Test
	void aRouteThatNamesAFormatIsSerializedByItForItsOwnDestinationAndStoredInBase64WithItsContentType() {
		assertThat(rowsOf(this.serializer, new Tagged("b"), Map.of())).singleElement().satisfies((row) -> {
			assertThat(Base64.getDecoder().decode(row.payload())).isEqualTo(TaggedFormat.bytes("tagged-events", "b"));
			assertThat(row.contentType()).isEqualTo(TaggedFormat.CONTENT_TYPE);
			assertThat(row.headers()).containsEntry(OutboxHeaders.PAYLOAD_SCHEMA, "urn:tagged:tagged-events");
		});
		assertThat(this.tagged.targets).containsExactly(new PayloadTarget("Tagged", "kafka", "tagged-events"));
	}

	@Test
	void eachRouteOfAnEventGetsTheFormatItNames() {
		List<CapturedEvent> rows = rowsOf(this.serializer, new TwoFormats("c"), Map.of());
		assertThat(rows).extracting(CapturedEvent::destination, CapturedEvent::contentType)
			.containsExactly(tuple("as-json", null), tuple("exchange/as-tagged", TaggedFormat.CONTENT_TYPE));
		assertThat(rows.get(0).payload()).isEqualTo("{\"id\":\"c\"}");
		assertThat(this.tagged.targets).containsExactly(new PayloadTarget("TwoFormats", "rabbit", "exchange/as-tagged"));
	}

	@Test
	void aTypeThatAFormatClaimsIsWrittenInItUnlessItsRouteNamesJson() {
		assertThat(rowsOf(this.serializer, new Claimed("d"), Map.of())).singleElement()
			.extracting(CapturedEvent::contentType)
			.isEqualTo(TaggedFormat.CONTENT_TYPE);
		assertThat(rowsOf(this.serializer, new ClaimedButJson("e"), Map.of())).singleElement()
			.extracting(CapturedEvent::payload)
			.isEqualTo("{\"id\":\"e\"}");
	}

	@Test
	void aConfiguredRouteNamesTheFormatOfAnUnannotatedEvent() {
		Map<String, RouteDefinition> configured = Map.of(Plain.class.getName(),
				new RouteDefinition(null, null, "plain-events", null, null, null, null, "tagged"));
		assertThat(rowsOf(this.serializer, new Plain("f"), configured)).singleElement()
			.extracting(CapturedEvent::contentType)
			.isEqualTo(TaggedFormat.CONTENT_TYPE);
	}

	@Test
	void theDefaultFormatAppliesToEventsWhoseRouteNamesNoneAndWhoseTypeNoneClaims() {
		EventSerializer taggedByDefault = new EventSerializer(this.json, 1024, List.of(this.tagged), "tagged", BINARY_TRANSPORTS);
		assertThat(rowsOf(taggedByDefault, new PlainRouted("g"), Map.of())).singleElement()
			.extracting(CapturedEvent::contentType)
			.isEqualTo(TaggedFormat.CONTENT_TYPE);
	}

	@Test
	void aRouteThatNamesAFormatThatIsNotThereIsRefusedNamingTheFormatsThereAre() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> rowsOf(this.serializer, new Misnamed("h"), Map.of()))
			.withMessageContaining("payload format 'avor', which does not exist")
			.withMessageContaining("'json', 'tagged'");
	}

	@Test
	void aSerializerThatFailsRefusesTheEventWithItsReasonAndWhereItWasGoing() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> rowsOf(this.serializer, new Tagged("refuse"), Map.of()))
			.withMessageContaining("cannot be serialized as tagged for kafka 'tagged-events'")
			.withMessageContaining("the subject tagged-events-value refuses it");
	}

	@Test
	void aBinaryPayloadForATransportThatSendsJsonOnlyIsRefusedSayingHowToRouteIt() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> rowsOf(this.serializer, new HandledLocally("i"), Map.of()))
			.withMessageContaining("would be written as tagged, but transport 'local' sends JSON payloads only")
			.withMessageContaining("payloadFormat \"json\"");
		assertThat(this.tagged.targets).isEmpty();
	}

	@Test
	void aBinaryPayloadLargerThanTheLimitIsRefused() {
		EventSerializer small = new EventSerializer(this.json, 8, List.of(this.tagged), "json", BINARY_TRANSPORTS);
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> rowsOf(small, new Tagged("larger than eight bytes"), Map.of()))
			.withMessageContaining("bytes as tagged, more than outbox.max-payload-size (8 bytes)");
	}

	@Test
	void anUnknownDefaultFormatTwoSerializersOfOneNameAndASerializerNamedJsonFailStartUp() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> new EventSerializer(this.json, 1024, List.of(), "avro", BINARY_TRANSPORTS))
			.withMessageContaining("outbox.payload-format 'avro' is not a payload format")
			.withMessageContaining("outbox-schema-registry");
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> new EventSerializer(this.json, 1024, List.of(this.tagged, new TaggedFormat()), "json", BINARY_TRANSPORTS))
			.withMessageContaining("Two payload serializers are named 'tagged'");
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> new EventSerializer(this.json, 1024, List.of(new TaggedFormat("json")), "json", BINARY_TRANSPORTS))
			.withMessageContaining("the outbox's own format");
	}

	private List<CapturedEvent> rowsOf(EventSerializer serializer, Object event,
			Map<String, RouteDefinition> configured) {
		EventRouting routing = new EventRouting(List.of(), configured,
				RoutableTransports.all(Set.of("kafka", "rabbit", "local"), "kafka"), new RouteFormats(MessageFormat.OUTBOX, null),
				new MockEnvironment());
		EventRoutes routes = routing.routesFor(event);
		return new SerializedEvent(routes, serializer.serialize(event, routes), Map.of()).rowsFor(null, null);
	}

	/**
	 * A binary format that writes the destination and the event's id, and refuses an event whose id says so.
	 */
	static final class TaggedFormat implements OutboxPayloadSerializer {

		static final String CONTENT_TYPE = "application/x-tagged";

		private final String name;

		final List<PayloadTarget> targets = new ArrayList<>();

		TaggedFormat() {
			this("tagged");
		}

		TaggedFormat(String name) {
			this.name = name;
		}

		static byte[] bytes(String destination, String id) {
			return (destination + ":" + id).getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public String format() {
			return this.name;
		}

		@Override
		public boolean serializesByDefault(Class<?> eventType) {
			return eventType.getSimpleName().startsWith("Claimed");
		}

		@Override
		public SerializedPayload serialize(Object event, PayloadTarget target) {
			this.targets.add(target);
			String id = ((Identified) event).id();
			if (id.equals("refuse")) {
				throw new IllegalStateException("the subject " + target.destination() + "-value refuses it");
			}
			return new SerializedPayload(bytes(target.destination(), id), CONTENT_TYPE,
					"urn:tagged:" + target.destination());
		}

	}

	interface Identified {

		String id();

	}

	record Plain(String id) implements Identified {
	}

	@OutboxEvent(destination = "plain-events")
	record PlainRouted(String id) implements Identified {
	}

	@OutboxEvent(destination = "tagged-events", payloadFormat = "tagged")
	record Tagged(String id) implements Identified {
	}

	@OutboxEvent(destination = "as-json")
	@OutboxEvent(transport = "rabbit", destination = "exchange/as-tagged", payloadFormat = "tagged")
	record TwoFormats(String id) implements Identified {
	}

	@OutboxEvent(destination = "claimed")
	record Claimed(String id) implements Identified {
	}

	@OutboxEvent(destination = "claimed", payloadFormat = "json")
	record ClaimedButJson(String id) implements Identified {
	}

	@OutboxEvent(transport = "local", destination = "handler", payloadFormat = "tagged")
	record HandledLocally(String id) implements Identified {
	}

	@OutboxEvent(destination = "misnamed", payloadFormat = "avor")
	record Misnamed(String id) implements Identified {
	}

}
