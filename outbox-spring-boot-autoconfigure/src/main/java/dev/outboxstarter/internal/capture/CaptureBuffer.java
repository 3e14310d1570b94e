package dev.outboxstarter.internal.capture;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.util.Assert;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The outbox events of one transaction, written in one batch just before it commits and handed to the
 * fast path once it has committed. It is bound to the transaction as a resource: suspended with it
 * while an inner {@code REQUIRES_NEW} transaction runs (which captures into a buffer of its own and
 * commits on its own), cut back to a savepoint when a nested transaction rolls back to it, and unbound
 * when it completes.
 * <p>
 * Its own before-commit callback writes the batch. An event captured after that (by a before-commit
 * callback ordered after it) is written at once; a buffer created while the before-commit callbacks
 * run never gets that callback, and is written as the commit begins ({@link CaptureCommitListener}).
 * Once the transaction completes, an event can no longer be captured: the buffer refuses it.
 */
final class CaptureBuffer implements TransactionSynchronization {

	/** Flushing can raise events whose listeners change more aggregates; this bounds the rounds. */
	private static final int MAX_FLUSH_ROUNDS = 10;

	/** The key the buffer is bound to its transaction under. */
	private final Object key;

	private final CommitSteps steps;

	private final CapturedRows rows = new CapturedRows();

	private final DeferredEvents deferred = new DeferredEvents();

	/** The sessions that write what their own flush at commit raised, by identity; few, usually none. */
	private @Nullable Set<Object> completionWriters;

	/** Whether the batch has been written: an event captured later is written at once. */
	private boolean batchWritten;

	/** Whether a write is under way, which takes the events it captures into its own batch. */
	private boolean writing;

	/** Whether the transaction has begun to complete: no event may be captured any more. */
	private boolean completing;

	private boolean committed;

	/**
	 * The outbox of the data source the transaction runs on, once an event has been captured and its
	 * connection found to be in the transaction.
	 */
	private @Nullable CaptureTarget target;

	/** The first event refused in this transaction, which must then not commit. */
	private @Nullable OutboxCaptureException refusal;

	CaptureBuffer(Object key, CommitSteps steps) {
		this.key = key;
		this.steps = steps;
	}

	/**
	 * Binds the buffer to the current transaction, which it follows from then on.
	 */
	void bind() {
		TransactionSynchronizationManager.bindResource(this.key, this);
		TransactionSynchronizationManager.registerSynchronization(this);
	}

	/**
	 * Adds the rows of an event, after those of the events an earlier flush deferred, which were raised
	 * before it. Once the batch is written (by a before-commit callback ordered after the buffer's own,
	 * still before the commit), they are written at once.
	 */
	void add(List<CapturedEvent> rows) {
		publishDeferred();
		this.rows.addAll(rows);
		if (this.batchWritten && !this.writing && !this.deferred.isPublishing()) {
			writeCaptured();
		}
	}

	/**
	 * Holds an outbox event pulled from an aggregate during a flush until the flush is over: its rows
	 * are added, and it is published, before the next event is captured or the batch is written.
	 */
	void defer(Object event, SerializedEvent serialized, Supplier<AggregateRef> aggregate) {
		this.deferred.add(event, serialized, aggregate);
	}

	/**
	 * Holds an event pulled from an aggregate during a flush that is not an outbox event, to publish it
	 * in its turn; once the transaction has committed, it is published at once.
	 */
	void deferPublication(Object event) {
		if (this.committed) {
			this.steps.publishDeferred(event);
		}
		else {
			this.deferred.addPublication(event);
		}
	}

	/**
	 * Records a session that writes what its own flush at commit defers, and whether it was not yet.
	 */
	boolean addCompletionWriter(Object session) {
		if (this.completionWriters == null) {
			this.completionWriters = Collections.newSetFromMap(new IdentityHashMap<>(2));
		}
		return this.completionWriters.add(session);
	}

	/**
	 * Writes what the transaction captured and has not written yet, for callers that run inside the
	 * commit itself (after the before-commit callbacks), such as a flush at commit.
	 */
	void writeCaptured() {
		write(this::publishDeferred);
	}

	/**
	 * The events captured so far, once the events that flushing pending changes defers are among them.
	 * @return the events in capture order, written or not
	 */
	List<CapturedEvent> flushAndList() {
		int rounds = 0;
		do {
			publishDeferred();
			this.steps.flush();
		}
		while (!this.deferred.isEmpty() && ++rounds < MAX_FLUSH_ROUNDS);
		return this.rows.all();
	}

	/**
	 * The commit begins, once every before-commit and before-completion callback has run: writes what
	 * was captured and not written (all of it for a buffer created while the before-commit callbacks
	 * ran, which never gets its own), and refuses events from now on.
	 * @throws OutboxCaptureException if the transaction refused an event and must not commit
	 */
	void commitBegins() {
		this.completing = true;
		assertNothingRefused();
		if (!this.batchWritten) {
			flushAndWrite();
			this.batchWritten = true;
		}
		else if (this.rows.hasUnwritten()) {
			writeCaptured();
		}
	}

	private void flushAndWrite() {
		write(() -> {
			int rounds = 0;
			do {
				this.steps.flush();
				publishDeferred();
			}
			while (!this.deferred.isEmpty() && ++rounds < MAX_FLUSH_ROUNDS);
		});
	}

	private void write(Runnable beforeInsert) {
		if (this.writing) {
			// Already writing further up the stack, which writes what this call would.
			return;
		}
		this.writing = true;
		try {
			beforeInsert.run();
			if (this.rows.hasUnwritten()) {
				Assert.state(this.target != null, "Rows were captured without an outbox to write them to");
				this.target.insert(this.rows.unwritten());
				this.rows.markWritten();
			}
		}
		finally {
			this.writing = false;
		}
	}

	private void publishDeferred() {
		try {
			this.deferred.publish(this.rows, this.steps);
		}
		catch (OutboxCaptureException ex) {
			// An aggregate's id that cannot key the event, or an event a listener raised that was refused.
			refuse(ex);
			throw ex;
		}
	}

	/**
	 * Whether an event may be captured now: until the transaction begins to complete, and then only
	 * by a write under way, which still writes it before the commit (the events a flush at commit
	 * raises).
	 */
	boolean isAccepting() {
		return !this.completing || this.writing || this.deferred.isPublishing();
	}

	boolean isCommitted() {
		return this.committed;
	}

	@Nullable CaptureTarget target() {
		return this.target;
	}

	/**
	 * Sets the outbox the transaction's rows go to, found for its first captured event; its later events
	 * run on the same connection.
	 */
	void writeTo(CaptureTarget target) {
		if (this.target == null) {
			this.target = target;
		}
	}

	void refuse(OutboxCaptureException refusal) {
		if (this.refusal == null) {
			this.refusal = refusal;
		}
	}

	private void assertNothingRefused() {
		if (this.refusal != null) {
			throw new OutboxCaptureException("This transaction cannot commit: it raised an outbox event that was "
					+ "refused, and its business change must not commit without it. " + this.refusal.getMessage(),
					this.refusal);
		}
	}

	@Override
	public void suspend() {
		TransactionSynchronizationManager.unbindResourceIfPossible(this.key);
	}

	@Override
	public void resume() {
		TransactionSynchronizationManager.bindResource(this.key, this);
	}

	@Override
	public void savepoint(Object savepoint) {
		// Events deferred before the savepoint belong before it, even if published after it.
		publishDeferred();
		if (this.batchWritten) {
			writeCaptured();
		}
		this.rows.savepoint(savepoint);
	}

	@Override
	public void savepointRollback(Object savepoint) {
		if (this.rows.rollBackTo(savepoint)) {
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
		flushAndWrite();
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
		this.steps.committed(this.target, this.rows.written(), this.rows.unwritten());
	}

	@Override
	public void afterCompletion(int status) {
		this.committed = true;
		TransactionSynchronizationManager.unbindResourceIfPossible(this.key);
	}

}
