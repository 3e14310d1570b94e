package dev.outboxstarter.internal.capture;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.internal.routing.EventRoutes;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The buffers of the transactions that capture outbox events: finds the current transaction's, or
 * creates one with its first event, once it has found the outbox of the data source the transaction
 * runs on, and checked that the event can be stored with the transaction's change.
 */
public final class CaptureBuffers {

	/** The outboxes, the default one first; more are added once the context has started. */
	private final List<CaptureTarget> targets = new CopyOnWriteArrayList<>();

	private final OutboxTransactionManagers transactionManagers;

	private final CommitSteps steps;

	private volatile @Nullable TenantTargets tenants;

	/**
	 * Creates the buffers.
	 * @param defaultTarget the outbox of the application's primary data source
	 * @param transactionManagers named when an event is published in a transaction of no outbox's data
	 * source
	 * @param steps what each buffer does with its events as its transaction commits
	 */
	public CaptureBuffers(CaptureTarget defaultTarget, OutboxTransactionManagers transactionManagers,
			CommitSteps steps) {
		this.targets.add(defaultTarget);
		this.transactionManagers = transactionManagers;
		this.steps = steps;
	}

	/**
	 * Adds the outbox of another data source, whose transactions' events are written to it from now on.
	 * @param target the outbox
	 */
	public void add(CaptureTarget target) {
		this.targets.add(target);
	}

	/**
	 * Sends the events of the primary data source's transactions to the outbox of their tenant from
	 * now on, when one is current.
	 * @param tenants the tenants' outboxes
	 */
	public void useTenants(TenantTargets tenants) {
		this.tenants = tenants;
	}

	/**
	 * The buffer of the current transaction for an event captured now.
	 * @param routes the event's routes
	 * @throws OutboxCaptureException if the event cannot be stored with the current transaction
	 */
	CaptureBuffer forCapture(EventRoutes routes) {
		CaptureBuffer buffer = bound();
		CaptureTarget target = target(routes, buffer);
		if (buffer == null) {
			if (commitStarted()) {
				throw publishedAfterCompletionBegan(routes);
			}
			buffer = newBuffer();
		}
		if (buffer.isCommitted() || !buffer.isAccepting()) {
			throw publishedAfterCompletionBegan(routes);
		}
		buffer.writeTo(target);
		return buffer;
	}

	/**
	 * The buffer of the current transaction for an event a flush deferred, which the flush at commit
	 * does while the commit is under way and a write still follows.
	 * @param routes the event's routes
	 * @throws OutboxCaptureException if the event cannot be stored with the current transaction
	 */
	CaptureBuffer forDeferredCapture(EventRoutes routes) {
		CaptureBuffer buffer = bound();
		CaptureTarget target = target(routes, buffer);
		if (buffer == null) {
			buffer = newBuffer();
		}
		if (buffer.isCommitted()) {
			throw publishedAfterCompletionBegan(routes);
		}
		buffer.writeTo(target);
		return buffer;
	}

	/**
	 * The outbox the current transaction's events go to: the buffer's, once it has one; otherwise the
	 * outbox whose data source has a connection in the transaction, not in auto-commit.
	 */
	private CaptureTarget target(EventRoutes routes, @Nullable CaptureBuffer buffer) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()
				|| !TransactionSynchronizationManager.isActualTransactionActive()) {
			if (TransactionSynchronizationManager.isActualTransactionActive()) {
				// Spring clears the synchronizations before it calls their afterCompletion.
				throw publishedAfterCompletionBegan(routes);
			}
			throw new OutboxCaptureException(routes.describeEvent() + " was published with no transaction active: "
					+ "outbox events are stored with the business change, so publish it inside a @Transactional "
					+ "method or a TransactionTemplate");
		}
		CaptureTarget target = (buffer != null) ? buffer.target() : null;
		if (target != null) {
			return target;
		}
		CaptureTarget autoCommitted = null;
		for (CaptureTarget candidate : this.targets) {
			Object connection = TransactionSynchronizationManager.getResource(candidate.dataSource());
			if (connection != null) {
				if (inTransaction(connection, routes)) {
					return tenantOf(candidate);
				}
				autoCommitted = (autoCommitted != null) ? autoCommitted : candidate;
			}
		}
		if (autoCommitted == null) {
			throw new OutboxCaptureException(routes.describeEvent() + " was published in a transaction that does "
					+ "not use " + describeDataSources() + ": run it in a transaction of the DataSource's (or JPA) "
					+ "transaction manager");
		}
		throw new OutboxCaptureException(routes.describeEvent() + " was published in a transaction whose "
				+ "connection to the outbox DataSource '" + autoCommitted.name() + "' is in auto-commit. "
				+ this.transactionManagers.explainOtherTransaction(autoCommitted.dataSource(),
						TransactionSynchronizationManager.getCurrentTransactionName()));
	}

	/**
	 * The outbox of the current tenant for a transaction of the primary data source, which the tenants
	 * share (through their schemas, or a routing data source).
	 */
	private CaptureTarget tenantOf(CaptureTarget target) {
		TenantTargets tenants = this.tenants;
		if (tenants == null || target != this.targets.get(0)) {
			return target;
		}
		CaptureTarget tenant = tenants.current();
		return (tenant != null) ? tenant : target;
	}

	private String describeDataSources() {
		if (this.targets.size() == 1) {
			return "the outbox DataSource";
		}
		return "any outbox DataSource (" + this.targets.stream()
			.map((target) -> "'" + target.name() + "'")
			.collect(Collectors.joining(", ")) + ")";
	}

	/**
	 * Whether a connection Spring bound to the transaction belongs to it. Spring binds a connection
	 * whenever synchronization is active, also when the transaction belongs to another data source's
	 * transaction manager, in auto-commit: a row inserted on it would commit at once, whatever becomes
	 * of the business change.
	 */
	private static boolean inTransaction(Object connection, EventRoutes routes) {
		if (!(connection instanceof ConnectionHolder holder)) {
			return true;
		}
		try {
			return !holder.getConnection().getAutoCommit();
		}
		catch (SQLException ex) {
			throw new OutboxCaptureException(routes.describeEvent()
					+ " cannot be captured: the connection to the outbox DataSource failed: " + ex.getMessage(), ex);
		}
	}

	private static OutboxCaptureException publishedAfterCompletionBegan(EventRoutes routes) {
		return new OutboxCaptureException(routes.describeEvent() + " was published after its transaction began to "
				+ "complete (from an after-commit or after-completion callback, such as an "
				+ "@TransactionalEventListener of phase AFTER_COMMIT): it can no longer be stored with that "
				+ "transaction's change. Publish it before the commit (e.g. from a BEFORE_COMMIT listener), or in a "
				+ "new transaction (REQUIRES_NEW)");
	}

	/**
	 * Holds an event a flush deferred that is not an outbox event, to publish it once the flush is over
	 * among the outbox events deferred with it; with no transaction, it is published at once.
	 * @param event the event
	 */
	void deferPublication(Object event) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			this.steps.publishDeferred(event);
			return;
		}
		CaptureBuffer buffer = bound();
		(buffer != null ? buffer : newBuffer()).deferPublication(event);
	}

	/**
	 * The commit of the current transaction begins: writes what it captured and has not written, and
	 * marks it so that an event captured from now on, such as by an after-commit callback, is refused.
	 * A transaction that captured nothing only gets that mark.
	 * @throws OutboxCaptureException if the transaction refused an event and must not commit
	 */
	void commitBegins() {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			return;
		}
		CaptureBuffer buffer = bound();
		if (buffer != null) {
			buffer.commitBegins();
		}
		else {
			TransactionSynchronizationManager.registerSynchronization(CommitStarted.INSTANCE);
		}
	}

	/**
	 * Marks the current transaction, if there is one, so that it cannot commit.
	 * @param refusal why an event was refused
	 */
	void refuse(OutboxCaptureException refusal) {
		if (TransactionSynchronizationManager.isSynchronizationActive()
				&& TransactionSynchronizationManager.isActualTransactionActive()) {
			CaptureBuffer buffer = bound();
			if (buffer != null) {
				buffer.refuse(refusal);
			}
			else if (!commitStarted()) {
				newBuffer().refuse(refusal);
			}
		}
	}

	/**
	 * The events the current transaction has captured so far, once its pending changes are flushed.
	 * @return the events in capture order, written or not; empty outside a transaction
	 */
	List<CapturedEvent> flushAndList() {
		if (!TransactionSynchronizationManager.isSynchronizationActive()
				|| !TransactionSynchronizationManager.isActualTransactionActive()) {
			return List.of();
		}
		this.steps.flush();
		CaptureBuffer buffer = bound();
		return (buffer != null) ? buffer.flushAndList() : List.of();
	}

	/**
	 * The buffer bound to the current transaction.
	 * @return the buffer, or {@code null} if the transaction has none
	 */
	@Nullable CaptureBuffer bound() {
		return (CaptureBuffer) TransactionSynchronizationManager.getResource(this);
	}

	private CaptureBuffer newBuffer() {
		CaptureBuffer buffer = new CaptureBuffer(this, this.steps);
		buffer.bind();
		return buffer;
	}

	/**
	 * Whether the current transaction, which has captured nothing so far, has begun to commit.
	 */
	private static boolean commitStarted() {
		return TransactionSynchronizationManager.getSynchronizations().contains(CommitStarted.INSTANCE);
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
