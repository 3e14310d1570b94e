package dev.outboxstarter.internal.capture;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.transaction.support.TransactionSynchronization;

/**
 * The outbox events of one transaction, written in one batch just before it commits. It is bound to
 * the transaction as a resource: suspended with it while an inner {@code REQUIRES_NEW} transaction
 * runs (which captures into a buffer of its own and commits on its own), and cut back to a savepoint
 * when a nested transaction rolls back to it.
 * <p>
 * Its own before-commit callback writes the batch. An event captured after that (by a before-commit
 * callback ordered after it) is written at once; a buffer created while the before-commit callbacks
 * run never gets that callback, and is written by {@link CaptureCommitListener} as the commit begins.
 * Once the transaction completes, an event can no longer be captured: the buffer refuses it.
 */
public final class CaptureBuffer implements TransactionSynchronization {

	private final OutboxCapture capture;

	private final List<CapturedEvent> events = new ArrayList<>();

	private final Deque<DeferredEvent> deferred = new ArrayDeque<>();

	/** The sessions that write what their own flush at commit raised, by identity; few, usually none. */
	private @Nullable Set<Object> completionWriters;

	private boolean publishingDeferred;

	private @Nullable DeferredEvent beingPublished;

	private int written;

	/** Whether the batch has been written: an event captured later is written at once. */
	private boolean batchWritten;

	/** Whether a write is under way, which takes the events it captures into its own batch. */
	private boolean writing;

	/** Whether the transaction has begun to complete: no event may be captured any more. */
	private boolean completing;

	private boolean committed;

	/** Whether the connection to the outbox's data source was found to be in this transaction. */
	private boolean outboxConnectionChecked;

	/** The first event refused in this transaction, which must then not commit. */
	private @Nullable OutboxCaptureException refusal;

	/** How many events each savepoint of a nested transaction found; few, usually none. */
	private @Nullable Map<Object, Integer> savepoints;

	CaptureBuffer(OutboxCapture capture) {
		this.capture = capture;
	}

	void add(CapturedEvent event) {
		this.events.add(event);
	}

	void defer(Object event, Supplier<AggregateRef> aggregate, @Nullable String payload) {
		this.deferred.add(new DeferredEvent(event, aggregate, payload));
	}

	boolean addCompletionWriter(Object session) {
		if (this.completionWriters == null) {
			this.completionWriters = Collections.newSetFromMap(new IdentityHashMap<>(2));
		}
		return this.completionWriters.add(session);
	}

	boolean startPublishingDeferred() {
		if (this.publishingDeferred) {
			return false;
		}
		this.publishingDeferred = true;
		return true;
	}

	void stopPublishingDeferred() {
		this.publishingDeferred = false;
		this.beingPublished = null;
	}

	DeferredEvent nextDeferred() {
		this.beingPublished = this.deferred.poll();
		return this.beingPublished;
	}

	/**
	 * The payload an event was serialized to when it was deferred, if it is the deferred event being
	 * published.
	 */
	@Nullable String payloadIfDeferred(Object event) {
		DeferredEvent deferred = this.beingPublished;
		return (deferred != null && deferred.event() == event) ? deferred.payload() : null;
	}

	boolean hasDeferred() {
		return !this.deferred.isEmpty();
	}

	List<CapturedEvent> events() {
		return List.copyOf(this.events);
	}

	List<CapturedEvent> unwritten() {
		return this.events.subList(this.written, this.events.size());
	}

	void markWritten() {
		this.written = this.events.size();
	}

	boolean isBatchWritten() {
		return this.batchWritten;
	}

	void markBatchWritten() {
		this.batchWritten = true;
	}

	boolean startWriting() {
		if (this.writing) {
			return false;
		}
		this.writing = true;
		return true;
	}

	void stopWriting() {
		this.writing = false;
	}

	/**
	 * Whether an event captured now is written by a write or a publication of deferred events under
	 * way, rather than on its own.
	 */
	boolean isWritingOrPublishing() {
		return this.writing || this.publishingDeferred;
	}

	/**
	 * Whether an event may be captured now: until the transaction begins to complete, and then only
	 * by a write under way, which still writes it before the commit (the events a flush at commit
	 * raises).
	 */
	boolean isAccepting() {
		return !this.completing || isWritingOrPublishing();
	}

	void markCompleting() {
		this.completing = true;
	}

	boolean isOutboxConnectionChecked() {
		return this.outboxConnectionChecked;
	}

	void markOutboxConnectionChecked() {
		this.outboxConnectionChecked = true;
	}

	/**
	 * Throws the refusal of an event of this transaction, if there was one.
	 * @throws OutboxCaptureException if an event was refused
	 */
	void assertNothingRefused() {
		if (this.refusal != null) {
			throw new OutboxCaptureException("This transaction cannot commit: it raised an outbox event that was "
					+ "refused, and its business change must not commit without it. " + this.refusal.getMessage(),
					this.refusal);
		}
	}

	void refuse(OutboxCaptureException refusal) {
		if (this.refusal == null) {
			this.refusal = refusal;
		}
	}

	boolean isCommitted() {
		return this.committed;
	}

	@Override
	public void suspend() {
		this.capture.unbind();
	}

	@Override
	public void resume() {
		this.capture.bind(this);
	}

	@Override
	public void savepoint(Object savepoint) {
		// Events deferred before the savepoint belong before it, even if published after it.
		this.capture.publishDeferred(this);
		if (this.batchWritten) {
			this.capture.write(this, false);
		}
		if (this.savepoints == null) {
			this.savepoints = new IdentityHashMap<>(2);
		}
		this.savepoints.put(savepoint, this.events.size());
	}

	@Override
	public void savepointRollback(Object savepoint) {
		Integer size = (this.savepoints != null) ? this.savepoints.remove(savepoint) : null;
		if (size != null) {
			// Rows written since the savepoint are rolled back with it.
			this.events.subList(size, this.events.size()).clear();
			this.written = Math.min(this.written, size);
			this.deferred.clear();
		}
	}

	@Override
	public int getOrder() {
		// Last, so that events raised by other before-commit callbacks are still captured.
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void beforeCommit(boolean readOnly) {
		assertNothingRefused();
		this.capture.write(this, true);
		this.batchWritten = true;
	}

	@Override
	public void beforeCompletion() {
		// Runs at a rollback too, so it cannot write; from here on nothing is captured.
		this.completing = true;
	}

	@Override
	public void afterCommit() {
		this.committed = true;
		this.capture.committed(Collections.unmodifiableList(this.events.subList(0, this.written)), unwritten());
	}

	@Override
	public void afterCompletion(int status) {
		this.committed = true;
		this.capture.unbind();
	}

	record DeferredEvent(Object event, Supplier<AggregateRef> aggregate, @Nullable String payload) {
	}

}
