package dev.outboxstarter.internal.inbox;

import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.sql.DataSource;

import dev.outboxstarter.Inbox;
import dev.outboxstarter.MissingMessageIdException;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.spi.InboxOutcomeListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link Inbox} on the inbox table, in transactions of the application's transaction manager, so the
 * handler's own database work commits or rolls back with the inbox insert. The insert comes first:
 * when it inserts nothing, the message was processed before (or is being processed by another
 * instance, whose commit the insert waited for) and the handler does not run.
 */
public class TransactionalInbox implements Inbox {

	private static final Log logger = LogFactory.getLog(TransactionalInbox.class);

	private final InboxStore store;

	private final PlatformTransactionManager transactionManager;

	private final DataSource dataSource;

	private final boolean processMissingIds;

	private final List<InboxOutcomeListener> listeners;

	/**
	 * Creates the inbox.
	 * @param store the inbox table
	 * @param transactionManager the application's transaction manager, over {@code dataSource}
	 * @param dataSource the data source of the inbox table
	 * @param processMissingIds whether messages without an id are processed (without deduplication)
	 * rather than refused
	 * @param listeners told every outcome
	 */
	public TransactionalInbox(InboxStore store, PlatformTransactionManager transactionManager, DataSource dataSource,
			boolean processMissingIds, List<InboxOutcomeListener> listeners) {
		this.store = store;
		this.transactionManager = transactionManager;
		this.dataSource = dataSource;
		this.processMissingIds = processMissingIds;
		this.listeners = List.copyOf(listeners);
	}

	@Override
	public boolean process(String consumer, @Nullable String source, @Nullable String messageId,
			InboxHandler handler) throws Exception {
		String id = checkedId(consumer, messageId);
		String idSource = (id != null) ? checkedSource(consumer, source) : InboxStore.NO_SOURCE;
		TransactionStatus transaction = this.transactionManager
			.getTransaction(new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_REQUIRED));
		boolean processed;
		try {
			if (TransactionSynchronizationManager.getResource(this.dataSource) == null) {
				throw new IllegalStateException("The inbox of consumer '" + consumer + "' runs in a transaction that "
						+ "does not use the inbox's DataSource, so its insert would not commit with the handler: "
						+ "use the DataSource's (or JPA) transaction manager");
			}
			processed = (id == null) || this.store.insertIfAbsent(consumer, idSource, id);
			if (processed) {
				handler.handle();
			}
		}
		catch (Exception | Error ex) {
			this.transactionManager.rollback(transaction);
			throw ex;
		}
		this.transactionManager.commit(transaction);
		for (InboxOutcomeListener listener : this.listeners) {
			if (processed) {
				listener.processed(consumer, id);
			}
			else {
				listener.duplicate(consumer, id);
			}
		}
		if (!processed && logger.isDebugEnabled()) {
			logger.debug("Consumer '" + consumer + "' skipped message " + id
					+ (idSource.isEmpty() ? "" : " of source " + idSource) + ": processed before");
		}
		return processed;
	}

	private @Nullable String checkedId(String consumer, @Nullable String messageId) {
		if (messageId == null || messageId.isEmpty()) {
			if (this.processMissingIds) {
				return null;
			}
			throw new MissingMessageIdException("Consumer '" + consumer + "' refused a message without an "
					+ OutboxHeaders.MESSAGE_ID + " header and without a CloudEvents id (ce_id, cloudEvents:id): it "
					+ "did not come from the outbox, so it cannot be deduplicated. Publish it through the outbox, or "
					+ "set outbox.inbox.missing-message-id=process "
					+ "to process such messages without deduplication");
		}
		checkLength(consumer, "message id", messageId);
		return messageId;
	}

	private String checkedSource(String consumer, @Nullable String source) {
		if (source == null || source.isEmpty()) {
			return InboxStore.NO_SOURCE;
		}
		checkLength(consumer, "source", source);
		return source;
	}

	private static void checkLength(String consumer, String what, String value) {
		// A UTF-16 char is at most 3 UTF-8 bytes: most values are measured without encoding them.
		if (value.length() * 3L <= InboxStore.MAX_BYTES) {
			return;
		}
		int bytes = value.getBytes(StandardCharsets.UTF_8).length;
		if (bytes > InboxStore.MAX_BYTES) {
			throw new MissingMessageIdException("Consumer '" + consumer + "' refused a message whose " + what
					+ " is " + bytes + " bytes long in UTF-8, more than the " + InboxStore.MAX_BYTES
					+ " the inbox stores: it cannot be deduplicated");
		}
	}

}
