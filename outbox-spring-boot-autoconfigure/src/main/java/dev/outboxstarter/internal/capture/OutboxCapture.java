package dev.outboxstarter.internal.capture;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.internal.routing.EventRouting;
import dev.outboxstarter.internal.routing.ResolvedRoute;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.CommittedEventsListener;
import dev.outboxstarter.spi.EventHeadersContributor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Captures outbox events into the current transaction: checks and serializes each event when it is
 * raised (so a bad event fails the business code that raised it), buffers it, writes the buffer in
 * one JDBC batch just before the commit, and hands the committed events to the fast path. An event
 * captured once the commit has begun is refused.
 */
public class OutboxCapture {

	private static final Log logger = LogFactory.getLog(OutboxCapture.class);

	/** Flushing can raise events whose listeners change more aggregates; this bounds the rounds. */
	private static final int MAX_FLUSH_ROUNDS = 10;

	private final EventRouting routing;

	private final JsonMapper json;

	private final long maxPayloadBytes;

	private final DataSource dataSource;

	private final OutboxStore store;

	private final RelayHandOff relayHandOff;

	private final List<CaptureFlushHook> flushHooks;

	private final List<EventHeadersContributor> headersContributors;

	private final List<CommittedEventsListener> committedListeners;

	private final ApplicationEventPublisher publisher;

	private final OutboxTransactionManagers transactionManagers;

	/**
	 * Creates the capture.
	 * @param routing decides which events go where
	 * @param json serializes payloads
	 * @param maxPayloadBytes largest serialized payload accepted, in bytes
	 * @param dataSource the outbox data source, which the business transaction must be using
	 * @param store writes the rows
	 * @param relayHandOff when the relay takes new rows from the fast path
	 * @param flushHooks flush pending changes before writing
	 * @param headersContributors add headers to each captured event
	 * @param committedListeners told the rows after commit
	 * @param publisher republishes events pulled from flushed aggregates
	 * @param transactionManagers named when an event is published in another data source's transaction
	 */
	public OutboxCapture(EventRouting routing, JsonMapper json, long maxPayloadBytes, DataSource dataSource,
			OutboxStore store, RelayHandOff relayHandOff, List<CaptureFlushHook> flushHooks,
			List<EventHeadersContributor> headersContributors, List<CommittedEventsListener> committedListeners,
			ApplicationEventPublisher publisher, OutboxTransactionManagers transactionManagers) {
		this.routing = routing;
		this.json = json;
		this.maxPayloadBytes = maxPayloadBytes;
		this.dataSource = dataSource;
		this.store = store;
		this.relayHandOff = relayHandOff;
		this.flushHooks = List.copyOf(flushHooks);
		this.headersContributors = List.copyOf(headersContributors);
		this.committedListeners = List.copyOf(committedListeners);
		this.publisher = publisher;
		this.transactionManagers = transactionManagers;
	}

	/**
	 * Captures an event if it is an outbox event.
	 * @param event the event
	 * @param aggregate the aggregate it came from, if known
	 * @return whether it was an outbox event (and is now part of the transaction)
	 * @throws OutboxCaptureException if it is an outbox event that cannot be captured
	 */
	public boolean capture(Object event, @Nullable AggregateRef aggregate) {
		try {
			return captureChecked(event, aggregate);
		}
		catch (OutboxCaptureException ex) {
			throw refused(ex);
		}
	}

	private boolean captureChecked(Object event, @Nullable AggregateRef aggregate) {
		List<ResolvedRoute> routes = this.routing.routesFor(event, aggregate);
		if (routes.isEmpty()) {
			return false;
		}
		String eventType = routes.get(0).eventType();
		CaptureBuffer buffer = currentBuffer(event, eventType, false);
		String payload = buffer.payloadIfDeferred(event);
		if (payload == null) {
			payload = serialize(event, eventType);
		}
		Map<String, String> headers = contributedHeaders();
		// Events an earlier flush deferred were raised before this one: an aggregate's events keep their order.
		publishDeferred(buffer);
		for (ResolvedRoute route : routes) {
			buffer.add(new CapturedEvent(UuidV7.generate(), (aggregate != null) ? aggregate.type() : null,
					(aggregate != null) ? aggregate.idAsString() : null, route.eventType(), route.transport(),
					route.destination(), route.key(), payload, withFormatHeaders(headers, route)));
		}
		if (buffer.isBatchWritten() && !buffer.isWritingOrPublishing()) {
			// Captured by a before-commit callback that ran after the buffer's own: still before the commit.
			write(buffer, false);
		}
		return true;
	}

	private static Map<String, String> withFormatHeaders(Map<String, String> headers, ResolvedRoute route) {
		if (route.formatHeaders().isEmpty()) {
			return headers;
		}
		Map<String, String> merged = new LinkedHashMap<>(headers);
		merged.putAll(route.formatHeaders());
		return merged;
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
	 * Holds an event pulled from an aggregate during a flush until the transaction is about to
	 * commit (or another event is captured), then publishes it like Spring Data would have (so the
	 * capture sees it with its aggregate). Publishing inside a flush would run listeners in the middle
	 * of it. An outbox event is checked and serialized at once, so that a bad one fails that flush.
	 * @param event the event
	 * @param aggregate its aggregate, resolved when the event is published (a new aggregate's id may
	 * be known only once the flush has inserted it)
	 * @throws OutboxCaptureException if it is an outbox event that cannot be captured
	 */
	public void deferUntilCommit(Object event, Supplier<AggregateRef> aggregate) {
		try {
			deferChecked(event, aggregate);
		}
		catch (OutboxCaptureException ex) {
			throw refused(ex);
		}
	}

	private void deferChecked(Object event, Supplier<AggregateRef> aggregate) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			publish(event, aggregate);
			return;
		}
		List<ResolvedRoute> routes = this.routing.routesFor(event, null);
		if (routes.isEmpty()) {
			// Any transaction may raise events that are not outbox events.
			CaptureBuffer buffer = boundBuffer();
			if (buffer.isCommitted()) {
				publish(event, aggregate);
			}
			else {
				buffer.defer(event, aggregate, null);
			}
			return;
		}
		// Checked now rather than when published: for the flush at commit, that would be inside the
		// session's completion callback, whose failure Hibernate logs at ERROR and wraps.
		String eventType = routes.get(0).eventType();
		CaptureBuffer buffer = currentBuffer(event, eventType, true);
		buffer.defer(event, aggregate, serialize(event, eventType));
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
		CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
		return buffer != null && buffer.addCompletionWriter(session);
	}

	/**
	 * Writes what the current transaction captured and has not written yet. For callers that run
	 * inside the commit itself (after the before-commit callbacks), such as a flush at commit.
	 */
	public void writeCaptured() {
		CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
		if (buffer != null) {
			write(buffer, false);
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
		if (!TransactionSynchronizationManager.isSynchronizationActive()
				|| !TransactionSynchronizationManager.isActualTransactionActive()) {
			return List.of();
		}
		this.flushHooks.forEach(CaptureFlushHook::flush);
		CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
		if (buffer == null) {
			return List.of();
		}
		int rounds = 0;
		do {
			publishDeferred(buffer);
			this.flushHooks.forEach(CaptureFlushHook::flush);
		}
		while (buffer.hasDeferred() && ++rounds < MAX_FLUSH_ROUNDS);
		return buffer.events();
	}

	void write(CaptureBuffer buffer, boolean flush) {
		if (!buffer.startWriting()) {
			// Already writing further up the stack, which writes what this call would.
			return;
		}
		try {
			int rounds = 0;
			do {
				if (flush) {
					this.flushHooks.forEach(CaptureFlushHook::flush);
				}
				publishDeferred(buffer);
			}
			while (flush && buffer.hasDeferred() && ++rounds < MAX_FLUSH_ROUNDS);
			List<CapturedEvent> unwritten = buffer.unwritten();
			if (!unwritten.isEmpty()) {
				this.store.insert(unwritten, this.relayHandOff.gracePeriod());
				buffer.markWritten();
			}
		}
		finally {
			buffer.stopWriting();
		}
	}

	/**
	 * Called by the transaction manager once every before-commit and before-completion callback has
	 * run, right before the database commit, on the commit path only: writes what the current
	 * transaction captured and has not written (a buffer created while the before-commit callbacks
	 * ran, which never gets its own), and marks the transaction so that an event captured from now on,
	 * such as by an after-commit callback, is refused. A transaction that captured nothing only gets
	 * that mark.
	 * @throws OutboxCaptureException if the transaction refused an event and must not commit
	 */
	void beforeCommit() {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			return;
		}
		CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
		if (buffer == null) {
			TransactionSynchronizationManager.registerSynchronization(CommitStarted.INSTANCE);
			return;
		}
		buffer.markCompleting();
		buffer.assertNothingRefused();
		if (!buffer.isBatchWritten()) {
			write(buffer, true);
			buffer.markBatchWritten();
		}
		else if (!buffer.unwritten().isEmpty()) {
			write(buffer, false);
		}
	}

	void publishDeferred(CaptureBuffer buffer) {
		if (!buffer.hasDeferred() || !buffer.startPublishingDeferred()) {
			// Already publishing them further up the stack: capturing one of them must not recurse.
			return;
		}
		try {
			while (buffer.hasDeferred()) {
				CaptureBuffer.DeferredEvent deferred = buffer.nextDeferred();
				publish(deferred.event(), deferred.aggregate());
			}
		}
		finally {
			buffer.stopPublishingDeferred();
		}
	}

	void committed(List<CapturedEvent> events, List<CapturedEvent> unwritten) {
		if (!unwritten.isEmpty()) {
			// Only a transaction manager that does not run CaptureCommitListener leaves a late buffer unwritten.
			logger.error(unwritten.size() + " outbox event(s) of a committed transaction were not written, the first "
					+ unwritten.get(0).eventType() + " to " + unwritten.get(0).destination() + ": they were captured "
					+ "after the transaction's before-commit callbacks began and its transaction manager does not "
					+ "tell the outbox when the commit begins. Use a transaction manager that extends "
					+ "AbstractPlatformTransactionManager as a bean, or capture the first outbox event of the "
					+ "transaction before it commits");
		}
		if (events.isEmpty()) {
			return;
		}
		for (CommittedEventsListener listener : this.committedListeners) {
			try {
				listener.committed(events);
			}
			catch (RuntimeException ex) {
				// The rows are committed; the relay publishes them after the grace period.
				logger.warn("Could not hand committed outbox events to " + listener, ex);
			}
		}
	}

	/**
	 * Marks the current transaction, if there is one, so that it cannot commit: the event it refused is
	 * part of the business change, which must not commit without it, even if the code that raised it
	 * catches the exception.
	 * @param refusal why the event was refused
	 * @return the refusal, to throw
	 */
	OutboxCaptureException refused(OutboxCaptureException refusal) {
		if (TransactionSynchronizationManager.isSynchronizationActive()
				&& TransactionSynchronizationManager.isActualTransactionActive()) {
			CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
			if (buffer != null) {
				buffer.refuse(refusal);
			}
			else if (!commitStarted()) {
				newBuffer().refuse(refusal);
			}
		}
		return refusal;
	}

	void bind(CaptureBuffer buffer) {
		TransactionSynchronizationManager.bindResource(this, buffer);
	}

	void unbind() {
		TransactionSynchronizationManager.unbindResourceIfPossible(this);
	}

	private void publish(Object event, Supplier<AggregateRef> aggregate) {
		IdentityHashMap<Object, Supplier<AggregateRef>> origin = new IdentityHashMap<>(1);
		origin.put(event, aggregate);
		try (AggregateContext.Scope scope = AggregateContext.open(origin)) {
			this.publisher.publishEvent(event);
		}
	}

	/**
	 * The buffer of the current transaction, created with the transaction's first event.
	 * @param event the event to capture
	 * @param eventType its logical type
	 * @param deferring whether the event is deferred by a flush, which the flush at commit does while
	 * the commit is under way and a write still follows
	 */
	private CaptureBuffer currentBuffer(Object event, String eventType, boolean deferring) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()
				|| !TransactionSynchronizationManager.isActualTransactionActive()) {
			if (TransactionSynchronizationManager.isActualTransactionActive()) {
				// Spring clears the synchronizations before it calls their afterCompletion.
				throw publishedAfterCompletionBegan(event, eventType);
			}
			throw new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType)
					+ " was published with no transaction active: outbox events are stored with the business "
					+ "change, so publish it inside a @Transactional method or a TransactionTemplate");
		}
		Object connection = TransactionSynchronizationManager.getResource(this.dataSource);
		if (connection == null) {
			throw new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType)
					+ " was published in a transaction that does not use the outbox DataSource: run it in a "
					+ "transaction of the DataSource's (or JPA) transaction manager");
		}
		CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
		if (buffer == null || !buffer.isOutboxConnectionChecked()) {
			assertInTransaction(connection, event, eventType);
		}
		if (buffer == null) {
			if (!deferring && commitStarted()) {
				throw publishedAfterCompletionBegan(event, eventType);
			}
			buffer = newBuffer();
		}
		if (buffer.isCommitted() || (!deferring && !buffer.isAccepting())) {
			throw publishedAfterCompletionBegan(event, eventType);
		}
		buffer.markOutboxConnectionChecked();
		return buffer;
	}

	/**
	 * Refuses an event whose transaction holds the outbox's data source's connection in auto-commit.
	 * Spring binds a connection to the transaction whenever synchronization is active, also when the
	 * transaction belongs to another data source's transaction manager: a row inserted on it would
	 * commit at once, whatever becomes of the business change.
	 */
	private void assertInTransaction(Object connection, Object event, String eventType) {
		if (!(connection instanceof ConnectionHolder holder)) {
			return;
		}
		boolean autoCommit;
		try {
			autoCommit = holder.getConnection().getAutoCommit();
		}
		catch (SQLException ex) {
			throw new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType)
					+ " cannot be captured: the connection to the outbox DataSource failed: " + ex.getMessage(), ex);
		}
		if (autoCommit) {
			throw new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType)
					+ " was published in a transaction whose connection to the outbox DataSource is in auto-commit. "
					+ this.transactionManagers
						.explainOtherTransaction(TransactionSynchronizationManager.getCurrentTransactionName()));
		}
	}

	private static OutboxCaptureException publishedAfterCompletionBegan(Object event, String eventType) {
		return new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType)
				+ " was published after its transaction began to complete (from an after-commit or after-completion "
				+ "callback, such as an @TransactionalEventListener of phase AFTER_COMMIT): it can no longer be "
				+ "stored with that transaction's change. Publish it before the commit (e.g. from a BEFORE_COMMIT "
				+ "listener), or in a new transaction (REQUIRES_NEW)");
	}

	/**
	 * Whether the current transaction, which has captured nothing so far, has begun to commit.
	 */
	private static boolean commitStarted() {
		return TransactionSynchronizationManager.getSynchronizations().contains(CommitStarted.INSTANCE);
	}

	private CaptureBuffer boundBuffer() {
		CaptureBuffer buffer = (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
		return (buffer != null) ? buffer : newBuffer();
	}

	private CaptureBuffer newBuffer() {
		CaptureBuffer buffer = new CaptureBuffer(this);
		bind(buffer);
		TransactionSynchronizationManager.registerSynchronization(buffer);
		return buffer;
	}

	private String serialize(Object event, String eventType) {
		String payload;
		try {
			payload = this.json.writeValueAsString(event);
		}
		catch (RuntimeException ex) {
			throw new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType)
					+ " cannot be serialized to JSON: " + ex.getMessage(), ex);
		}
		// A UTF-16 char is at most 3 UTF-8 bytes: most payloads are measured without encoding them.
		if (payload.length() * 3L <= this.maxPayloadBytes) {
			return payload;
		}
		long size = payload.getBytes(StandardCharsets.UTF_8).length;
		if (size > this.maxPayloadBytes) {
			throw new OutboxCaptureException(EventRouting.describe(event.getClass(), eventType) + " is " + size
					+ " bytes as JSON, more than outbox.max-payload-size (" + this.maxPayloadBytes
					+ " bytes): make the event smaller or raise the limit");
		}
		return payload;
	}

	/**
	 * Marks a transaction that captured nothing before its commit began: it is registered with the
	 * transaction's synchronizations, so it is suspended with them when an after-commit callback runs
	 * a new transaction, and gone with them when the transaction ends.
	 */
	private enum CommitStarted implements TransactionSynchronization {

		INSTANCE

	}

}
