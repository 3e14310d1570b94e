package dev.outboxstarter.core;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the consumer-side inbox: processed message ids, so that '@IdempotentConsumer'
 * listeners process each outbox message once.
 */
@ConfigurationProperties("outbox.inbox")
class OutboxInboxProperties {

	/**
	 * Whether the inbox table is created and '@IdempotentConsumer' listeners deduplicate.
	 */
	private final boolean enabled;

	/**
	 * Name of the inbox table, a plain SQL identifier. Created the way outbox.schema.mode says.
	 */
	private final String tableName;

	/**
	 * How long processed message ids are kept. It must be longer than the latest a message can be
	 * redelivered, or a redelivery that comes after its id was deleted is processed again.
	 */
	private final Duration retention;

	/**
	 * What '@IdempotentConsumer' listeners do with a message that has no outbox-message-id
	 * header and no CloudEvents id: 'refuse' it (not retried), or 'process' it without
	 * deduplication.
	 */
	private final MissingMessageId missingMessageId;

	/**
	 * Pause between deletions of expired ids.
	 */
	private final Duration cleanupInterval;

	/**
	 * Most expired ids deleted in one transaction.
	 */
	private final int cleanupBatchSize;

	public OutboxInboxProperties(@DefaultValue("false") boolean enabled, @DefaultValue("outbox_inbox") String tableName,
			@DefaultValue("14d") Duration retention, @DefaultValue("refuse") MissingMessageId missingMessageId,
			@DefaultValue("1h") Duration cleanupInterval, @DefaultValue("1000") int cleanupBatchSize) {
		OutboxProperties.checkTableName(tableName, "outbox.inbox.table-name");
		OutboxProperties.checkPositive(retention, "outbox.inbox.retention");
		OutboxProperties.checkPositive(cleanupInterval, "outbox.inbox.cleanup-interval");
		OutboxProperties.checkBetween(cleanupBatchSize, 1, 10000, "outbox.inbox.cleanup-batch-size");
		this.enabled = enabled;
		this.tableName = tableName;
		this.retention = retention;
		this.missingMessageId = missingMessageId;
		this.cleanupInterval = cleanupInterval;
		this.cleanupBatchSize = cleanupBatchSize;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public String getTableName() {
		return this.tableName;
	}

	public Duration getRetention() {
		return this.retention;
	}

	public MissingMessageId getMissingMessageId() {
		return this.missingMessageId;
	}

	public Duration getCleanupInterval() {
		return this.cleanupInterval;
	}

	public int getCleanupBatchSize() {
		return this.cleanupBatchSize;
	}

	/**
	 * What to do with a message without an outbox message id.
	 */
	public enum MissingMessageId {

		/** Refuse it with an error that is not retried. */
		REFUSE,

		/** Process it, without deduplication. */
		PROCESS

	}

}
