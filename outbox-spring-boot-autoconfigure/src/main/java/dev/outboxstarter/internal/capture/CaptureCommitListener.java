package dev.outboxstarter.internal.capture;

import java.util.function.Supplier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.util.function.SingletonSupplier;

/**
 * Tells the capture that a transaction's commit begins. A transaction manager calls it once every
 * before-commit and before-completion callback has run, right before the database commit, and only
 * when it commits; what it throws rolls the transaction back. That is the last moment to write
 * events captured too late for the buffer's own before-commit callback, which Spring calls only on
 * the synchronizations registered when the before-commit callbacks began, and the first from which
 * an event can no longer be captured into the transaction.
 */
final class CaptureCommitListener implements TransactionExecutionListener {

	/** Resolved on first use: transaction managers are created before the capture. */
	private final Supplier<OutboxCapture> capture;

	CaptureCommitListener(ObjectProvider<OutboxCapture> capture) {
		this.capture = SingletonSupplier.of(capture::getObject);
	}

	@Override
	public void beforeCommit(TransactionExecution transaction) {
		if (!transaction.isNested()) {
			// A nested transaction releases its savepoint: the transaction around it goes on.
			this.capture.get().beforeCommit();
		}
	}

}
