package dev.outboxstarter.internal.capture;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.MessageFormat;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.internal.routing.EventRouting;
import dev.outboxstarter.internal.routing.RoutableTransports;
import dev.outboxstarter.internal.routing.RouteFormats;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the rows of a captured event are due: at once, after their route's delay, or at the time asked for.
 */
class SerializedEventTests {

	private final EventRouting routing = new EventRouting(List.of(), Map.of(),
			RoutableTransports.all(Set.of("kafka", "rabbit"), "kafka"), new RouteFormats(MessageFormat.OUTBOX, null),
			new MockEnvironment());

	@Test
	void rowsOfAnEventWithoutADelayAreDueAtOnce() {
		assertThat(rowsOf(new Placed("a"), null)).singleElement().satisfies((row) -> {
			assertThat(row.deliverAt()).isNull();
			assertThat(row.isDelayed()).isFalse();
		});
	}

	@Test
	void everyRowOfAnEventWithARouteDelayIsDueThatLongAfterItIsCaptured() {
		Instant before = Instant.now();
		List<CapturedEvent> rows = rowsOf(new Reminder("a"), null);
		Instant after = Instant.now();

		assertThat(rows).hasSize(2).allSatisfy((row) -> {
			assertThat(row.deliverAt()).isBetween(before.plus(Duration.ofMinutes(15)), after.plus(Duration.ofMinutes(15)));
			assertThat(row.isDelayed()).isTrue();
		});
		assertThat(rows).extracting(CapturedEvent::delayHoldsKey).containsExactly(false, true);
	}

	@Test
	void timeAskedForTakesThePlaceOfTheRouteDelay() {
		Instant at = Instant.now().plusSeconds(30);

		assertThat(rowsOf(new Reminder("a"), at)).extracting(CapturedEvent::deliverAt).containsOnly(at);
		assertThat(rowsOf(new Placed("a"), at)).extracting(CapturedEvent::deliverAt).containsOnly(at);
	}

	@Test
	void timeThatHasPassedMakesTheEventDueAtOnce() {
		assertThat(rowsOf(new Reminder("a"), Instant.now().minusSeconds(1))).extracting(CapturedEvent::deliverAt)
			.containsOnlyNulls();
	}

	private List<CapturedEvent> rowsOf(Object event, @Nullable Instant deliverAt) {
		EventRoutes routes = this.routing.routesFor(event);
		List<EventSerializer.Payload> payloads = Collections.nCopies(routes.routes().size(),
				new EventSerializer.Payload("{}", null, null));
		return new SerializedEvent(routes, payloads, Map.of()).rowsFor(null, deliverAt);
	}

	@OutboxEvent(destination = "orders", key = "id")
	record Placed(String id) {
	}

	@OutboxEvent(destination = "reminders", key = "id", delay = "PT15M")
	@OutboxEvent(transport = "rabbit", destination = "partners/reminder", key = "id", delay = "15m", delayHoldsKey = true)
	record Reminder(String id) {
	}

}
