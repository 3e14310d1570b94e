package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.FailedAttempt;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a failed send means for its event, its destination and its transport: an attempt that backs off
 * or makes the event {@code DEAD}, an outage that never does, a pause of one destination, or no attempt
 * at all.
 */
public class SendFailuresTests {

	/** Ten attempts, a minute apart at first, without jitter. */
	private static final RetryPolicy TEN_ATTEMPTS = new RetryPolicy(Duration.ofMinutes(1), 2, Duration.ofHours(1), 0,
			10);

	private final Outages outages = new Outages(TEN_ATTEMPTS);

	@Test
	void failureOfTheMessagesOwnIsAnAttemptThatBacksOffByTheRetryPolicy() {
		SendFailures failures = failures(new FailingTransport(false, false));
		ClaimedEvent event = event("t", 2);

		failures.failed(event, new IllegalStateException("refused"));

		assertThat(failures.failures()).singleElement()
			.satisfies((failure) -> assertThat(failure.attempt()).isEqualTo(
					new FailedAttempt(event.message().id(), false, Duration.ofMinutes(4),
							"java.lang.IllegalStateException: refused")));
		assertThat(failures.skips(event("t", 0))).as("the transport and destination are asked again").isFalse();
	}

	@Test
	void failureOfTheMessagesOwnMakesTheEventDeadOnceItsAttemptsAreUsedUp() {
		SendFailures failures = failures(new FailingTransport(false, false));

		failures.failed(event("t", 9), new IllegalStateException("refused"));

		assertThat(failures.failures()).singleElement()
			.satisfies((failure) -> assertThat(failure.attempt().dead()).isTrue());
	}

	@Test
	void failureNoRetryCanGetPastMakesTheEventDeadAtItsFirstAttempt() {
		SendFailures failures = failures(new FailingTransport(false, true));

		failures.failed(event("t", 0), new IllegalStateException("record too large"));

		assertThat(failures.failures()).singleElement().satisfies((failure) -> {
			assertThat(failure.attempt().dead()).isTrue();
			assertThat(failure.attempt().retryDelay()).isZero();
		});
	}

	@Test
	void unavailableBrokerIsAnOutageOfTheTransportThatNeverMakesAnEventDeadNorPermanent() {
		SendFailures failures = failures(new FailingTransport(true, true));
		ClaimedEvent lastAttempt = event("t", 9);
		String error = "java.lang.IllegalStateException: no metadata";

		failures.failed(lastAttempt, new IllegalStateException("no metadata"));
		failures.recordUnavailableSends();

		assertThat(failures.failures()).singleElement()
			.satisfies((failure) -> assertThat(failure.attempt())
				.isEqualTo(new FailedAttempt(lastAttempt.message().id(), false, Duration.ofHours(1), error)));
		assertThat(failures.unavailableTransports()).containsExactly("kafka");
		assertThat(failures.firstUnavailableErrorOf("kafka")).isEqualTo(error);
		assertThat(failures.skips(event("other", 0))).isTrue();
		assertThat(this.outages.pausedDestinations()).isEmpty();
	}

	@Test
	void destinationUnavailableWhileItsTransportAcknowledgesAnotherPausesAloneAndIsNeverDead() {
		SendFailures failures = failures(new FailingTransport(true, false));
		ClaimedEvent missing = event("missing", 9);
		this.outages.destinationAcknowledged(new Destination("kafka", "t"), System.nanoTime());

		failures.failed(missing, new IllegalStateException("Topic missing not present in metadata"));
		failures.recordUnavailableSends();

		assertThat(failures.failures()).singleElement().satisfies((failure) -> {
			assertThat(failure.attempt().dead()).isFalse();
			assertThat(failure.attempt().retryDelay()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
		});
		assertThat(failures.unavailableTransports()).isEmpty();
		assertThat(failures.skips(event("missing", 0))).isTrue();
		assertThat(failures.skips(event("t", 0))).isFalse();
		assertThat(this.outages.pausedDestinations()).singleElement()
			.satisfies((paused) -> assertThat(paused.destination()).isEqualTo("missing"));
	}

	@Test
	void secondDestinationUnavailableWithNothingAcknowledgedElsewhereStopsTheWholeTransport() {
		SendFailures failures = failures(new FailingTransport(true, false));

		failures.failed(event("a", 0), new IllegalStateException("no metadata"));
		assertThat(failures.skips(event("b", 0))).isFalse();
		failures.failed(event("b", 0), new IllegalStateException("no metadata"));

		assertThat(failures.skips(event("c", 0))).isTrue();
	}

	@Test
	void transportWithNoRoomIsNotAskedAgainAndItsEventCountsNoAttempt() {
		SendFailures failures = failures(new FailingTransport(false, false));
		ClaimedEvent event = event("t", 0);

		failures.noRoomFor(event);

		assertThat(failures.failures()).isEmpty();
		assertThat(failures.noRoom()).containsExactly(event);
		assertThat(failures.skips(event("other", 0))).isTrue();
		assertThat(failures.unavailableTransports()).isEmpty();
	}

	@Test
	void eventOfATransportThatDoesNotExistFailsAnAttempt() {
		SendFailures failures = failures(new FailingTransport(false, false));

		failures.noTransportFor(event("t", 0));

		assertThat(failures.failures()).singleElement()
			.satisfies((failure) -> assertThat(failure.attempt().error())
				.isEqualTo("No transport named 'kafka' is available"));
	}

	private SendFailures failures(OutboxTransport transport) {
		return new SendFailures(Map.of(transport.name(), transport), TEN_ATTEMPTS, this.outages);
	}

	private static ClaimedEvent event(String destination, int attempts) {
		OutboxMessage message = new OutboxMessage(UUID.randomUUID(), "Placed", "Order", "1", destination, "K", "{}",
				Map.of(), Instant.now());
		return new ClaimedEvent(message, 1, "kafka", attempts);
	}

	/** Refuses every message; what a failure means is what it is told to say. */
	private record FailingTransport(boolean unavailable, boolean permanent) implements OutboxTransport {

		@Override
		public String name() {
			return "kafka";
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			return CompletableFuture.failedFuture(new IllegalStateException("refused"));
		}

		@Override
		public boolean isUnavailable(Throwable failure) {
			return this.unavailable;
		}

		@Override
		public boolean isPermanent(Throwable failure) {
			return this.permanent;
		}

	}

}
