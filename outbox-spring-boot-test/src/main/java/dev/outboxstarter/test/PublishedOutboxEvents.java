package dev.outboxstarter.test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import dev.outboxstarter.spi.OutboxMessage;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The outbox events that {@link RecordingOutboxTransport recording transports} published since the
 * test method started, in the order they were sent. Publishing happens after the commit, on the
 * outbox's own threads: {@link #await(Class) await} an event, or {@link TestOutboxRelay#drain()
 * drain} the outbox first, before asserting on what was published, or that something was not:
 * <pre class="code">
 * relay.drain();
 * assertThat(published.ofType(OrderCancelled.class)).isEmpty();
 * </pre>
 *
 * @since 0.1.0
 */
public class PublishedOutboxEvents extends RecordedOutboxEvents {

	/** Long enough for a busy build machine, short enough that a missing event fails the test soon. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final PayloadReader reader;

	private final List<RecordedOutboxEvent> events = new CopyOnWriteArrayList<>();

	PublishedOutboxEvents(PayloadReader reader) {
		this.reader = reader;
	}

	@Override
	public List<RecordedOutboxEvent> all() {
		return List.copyOf(this.events);
	}

	/**
	 * Waits up to 10 seconds until an event of a class is published.
	 * @param type the event class, recognised as {@link #ofType(Class)} does
	 * @return the first such event
	 * @throws AssertionError if none is published in time
	 */
	public RecordedOutboxEvent await(Class<?> type) {
		return await(type, (event) -> true);
	}

	/**
	 * Waits up to 10 seconds until an event of a class that matches a condition is published.
	 * @param <T> the event class
	 * @param type the event class, recognised as {@link #ofType(Class)} does
	 * @param matching the condition, tested on the event read back ({@link RecordedOutboxEvent#payloadAs(Class)})
	 * @return the first such event
	 * @throws AssertionError if none is published in time
	 */
	public <T> RecordedOutboxEvent await(Class<T> type, Predicate<? super T> matching) {
		try {
			return Awaitility.await()
				.atMost(TIMEOUT)
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> first(type, matching), Optional::isPresent)
				.get();
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("No " + type.getSimpleName() + " event matching the condition was published "
					+ "within " + TIMEOUT.toSeconds() + " seconds; published: " + all()
					+ ". Was its transaction committed, and is its transport recorded (@AutoConfigureOutbox"
					+ "(recordedTransports))?");
		}
	}

	private <T> Optional<RecordedOutboxEvent> first(Class<T> type, Predicate<? super T> matching) {
		return ofType(type).stream().filter((event) -> matching.test(event.payloadAs(type))).findFirst();
	}

	void record(String transport, OutboxMessage message) {
		this.events.add(RecordedOutboxEvent.published(transport, message, this.reader));
	}

	void clear() {
		this.events.clear();
	}

}
