package dev.outboxstarter.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.spi.CapturedEvent;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The outbox events the test's transactions captured since the test method started: those of the
 * transactions that committed, then those the current transaction of the calling thread has
 * captured so far. The current transaction's pending changes are flushed first, so that the
 * events of changed aggregates are there as they would be at commit; a test that rolls its
 * transaction back (the default of {@code @DataJpaTest}) sees what the commit would have written.
 * Events of transactions that rolled back are not there.
 * <p>
 * Inject it into a test class annotated with {@link AutoConfigureOutbox @AutoConfigureOutbox} and
 * use AssertJ: <pre class="code">
 * assertThat(captured.ofType(OrderPlaced.class)).singleElement()
 *     .satisfies((event) -&gt; assertThat(event.key()).isEqualTo(orderId));
 * assertThat(captured.ofType(OrderCancelled.class)).isEmpty();
 * </pre>
 *
 * @since 0.1.0
 */
public class CapturedOutboxEvents extends RecordedOutboxEvents {

	/** Looked up when read: the capture is told the committed events through this view's listener. */
	private final ObjectProvider<OutboxTesting> testing;

	private final PayloadReader reader;

	private final List<CapturedEvent> committed = new CopyOnWriteArrayList<>();

	CapturedOutboxEvents(ObjectProvider<OutboxTesting> testing, PayloadReader reader) {
		this.testing = testing;
		this.reader = reader;
	}

	@Override
	public List<RecordedOutboxEvent> all() {
		List<RecordedOutboxEvent> events = new ArrayList<>();
		this.committed.forEach((event) -> events.add(RecordedOutboxEvent.captured(event, this.reader)));
		this.testing.getObject().flushAndListCaptured()
			.forEach((event) -> events.add(RecordedOutboxEvent.captured(event, this.reader)));
		return events;
	}

	void committed(List<CapturedEvent> events) {
		this.committed.addAll(events);
	}

	void clear() {
		this.committed.clear();
	}

}
