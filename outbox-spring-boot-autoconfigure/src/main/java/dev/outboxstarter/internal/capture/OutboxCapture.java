package dev.outboxstarter.internal.capture;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.internal.routing.EventRouting;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.EventHeadersContributor;
import org.jspecify.annotations.Nullable;

/**
 * Captures outbox events into the current transaction, each in one pass: routes it, serializes it
 * when it is raised (so that a bad event fails the business code that raised it) and adds its rows to
 * the transaction's buffer, which writes them in one JDBC batch just before the commit and hands them
 * to the fast path after it. An event captured once the commit has begun is refused.
 */
public class OutboxCapture {

	private final EventRouting routing;

	private final EventSerializer serializer;

	private final List<EventHeadersContributor> headersContributors;

	private final CaptureBuffers buffers;

	/**
	 * Creates the capture.
	 * @param routing decides which events go where
	 * @param serializer serializes payloads
	 * @param headersContributors add headers to each captured event
	 * @param buffers the buffers of the transactions
	 */
	public OutboxCapture(EventRouting routing, EventSerializer serializer,
			List<EventHeadersContributor> headersContributors, CaptureBuffers buffers) {
		this.routing = routing;
		this.serializer = serializer;
		this.headersContributors = List.copyOf(headersContributors);
		this.buffers = buffers;
	}

	/**
	 * Captures an event if it is an outbox event.
	 * @param event the event
	 * @param aggregate the aggregate it came from, if known
	 * @return whether it was an outbox event (and is now part of the transaction)
	 * @throws OutboxCaptureException if it is an outbox event that cannot be captured
	 */
	public boolean capture(Object event, @Nullable AggregateRef aggregate) {
		return capture(event, aggregate, null);
	}

	/**
	 * Captures an event if it is an outbox event, to be published no earlier than the given time.
	 * @param event the event
	 * @param aggregate the aggregate it came from, if known
	 * @param deliverAt the earliest time it may be published, in place of its routes' delays; {@code null}
	 * for theirs
	 * @return whether it was an outbox event (and is now part of the transaction)
	 * @throws OutboxCaptureException if it is an outbox event that cannot be captured, such as a delayed one
	 * when the log relay publishes every event as it is written
	 */
	public boolean capture(Object event, @Nullable AggregateRef aggregate, @Nullable Instant deliverAt) {
		try {
			EventRoutes routes = this.routing.routesFor(event);
			if (routes.isEmpty()) {
				return false;
			}
			this.routing.checkDelayable(routes, deliverAt);
			CaptureBuffer buffer = this.buffers.forCapture(routes);
			buffer.add(serialize(event, routes).rowsFor(aggregate, deliverAt));
			return true;
		}
		catch (OutboxCaptureException ex) {
			throw refused(ex);
		}
	}

	/**
	 * Captures an event on a route its caller decided, with headers of the caller's own, which replace
	 * contributed headers of the same name.
	 * @param route where it goes, its key as it is
	 * @param event the event
	 * @param headers the caller's headers
	 * @throws OutboxCaptureException if it cannot be captured
	 */
	public void capture(OutboxRoute route, Object event, Map<String, String> headers) {
		try {
			EventRoutes routes = this.routing.routesFor(event, List.of(route));
			CaptureBuffer buffer = this.buffers.forCapture(routes);
			Map<String, String> merged = new LinkedHashMap<>(contributedHeaders());
			merged.putAll(headers);
			buffer.add(new SerializedEvent(routes, this.serializer.serialize(event, routes), Map.copyOf(merged))
				.rowsFor(null, null));
		}
		catch (OutboxCaptureException ex) {
			throw refused(ex);
		}
	}

	/**
	 * Captures an event pulled from an aggregate during a flush, and holds it until the flush is over:
	 * then its rows are added to the transaction's buffer and it is published to the application's
	 * listeners, as Spring Data would have published it (publishing inside a flush would run listeners
	 * in the middle of it). It is checked and serialized at once, so that a bad one fails that flush
	 * rather than the flush at commit, whose failure Hibernate logs at ERROR and wraps. An event that is
	 * not an outbox event is held and published in its turn.
	 * @param event the event
	 * @param aggregate its aggregate, resolved once the flush is over (a new aggregate's id may be known
	 * only once the flush has inserted it)
	 * @throws OutboxCaptureException if it is an outbox event that cannot be captured
	 */
	public void deferUntilCommit(Object event, Supplier<AggregateRef> aggregate) {
		try {
			EventRoutes routes = this.routing.routesFor(event);
			if (routes.isEmpty()) {
				this.buffers.deferPublication(event);
				return;
			}
			this.routing.checkDelayable(routes, null);
			CaptureBuffer buffer = this.buffers.forDeferredCapture(routes);
			buffer.defer(event, serialize(event, routes), aggregate);
		}
		catch (OutboxCaptureException ex) {
			throw refused(ex);
		}
	}

	private SerializedEvent serialize(Object event, EventRoutes routes) {
		return new SerializedEvent(routes, this.serializer.serialize(event, routes), contributedHeaders());
	}

	private Map<String, String> contributedHeaders() {
		if (this.headersContributors.isEmpty()) {
			return Map.of();
		}
		Map<String, String> headers = new LinkedHashMap<>();
		this.headersContributors.forEach((contributor) -> contributor.contribute(headers));
		return Map.copyOf(headers);
	}

	/**
	 * Whether a session that deferred events in the current transaction must still register a
	 * callback of its own that writes them as its transaction completes: {@code true} the first time
	 * it asks. The flush a session runs at commit comes after the before-commit callbacks that
	 * publish deferred events and write the rest, so only such a callback writes what that flush raised.
	 * @param session the session
	 * @return whether the session is asking for the first time in this transaction
	 */
	public boolean needsCompletionWriter(Object session) {
		CaptureBuffer buffer = this.buffers.bound();
		return buffer != null && buffer.addCompletionWriter(session);
	}

	/**
	 * Writes what the current transaction captured and has not written yet. For callers that run
	 * inside the commit itself (after the before-commit callbacks), such as a flush at commit.
	 */
	public void writeCaptured() {
		CaptureBuffer buffer = this.buffers.bound();
		if (buffer != null) {
			buffer.writeCaptured();
		}
	}

	/**
	 * The events the current transaction has captured so far, once its pending changes are flushed so
	 * that the events of changed aggregates are among them, as they will be at commit. For tests, which
	 * look at a transaction they usually roll back (the test kit's {@code CapturedOutboxEvents}).
	 * @return the events in capture order, written or not; empty outside a transaction
	 * @throws OutboxCaptureException if an event the flush raised cannot be captured
	 */
	public List<CapturedEvent> flushAndListCaptured() {
		return this.buffers.flushAndList();
	}

	/**
	 * Called by the transaction manager once every before-commit and before-completion callback has
	 * run, right before the database commit, on the commit path only: writes what the current
	 * transaction captured and has not written (a buffer created while the before-commit callbacks
	 * ran, which never gets its own), and marks the transaction so that an event captured from now on,
	 * such as by an after-commit callback, is refused.
	 * @throws OutboxCaptureException if the transaction refused an event and must not commit
	 */
	void beforeCommit() {
		this.buffers.commitBegins();
	}

	/**
	 * Marks the current transaction, if there is one, so that it cannot commit: the event it refused is
	 * part of the business change, which must not commit without it, even if the code that raised it
	 * catches the exception.
	 * @param refusal why the event was refused
	 * @return the refusal, to throw
	 */
	OutboxCaptureException refused(OutboxCaptureException refusal) {
		this.buffers.refuse(refusal);
		return refusal;
	}

}
