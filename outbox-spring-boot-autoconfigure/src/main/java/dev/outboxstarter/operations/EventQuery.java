package dev.outboxstarter.operations;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Which outbox rows an operator means: each criterion given narrows the rows to those that match it
 * exactly, and a {@code null} one matches every row. {@link OutboxMonitoring#find} lists them,
 * {@link OutboxAdministration#retryDead} and {@link OutboxAdministration#republish} act on them.
 *
 * @param status only rows of this status
 * @param eventType only events of this logical type
 * @param destination only rows for this destination (a topic, an exchange with its routing key)
 * @param key only rows with this message key
 * @param aggregateType only events of aggregates of this type
 * @param aggregateId only events of the aggregate with this id
 * @param createdFrom only rows written at or after this time
 * @param createdBefore only rows written before this time
 * @since 0.1.0
 */
public record EventQuery(@Nullable EventStatus status, @Nullable String eventType, @Nullable String destination,
		@Nullable String key, @Nullable String aggregateType, @Nullable String aggregateId,
		@Nullable Instant createdFrom, @Nullable Instant createdBefore) {

	/**
	 * Every row.
	 * @return a query with no criterion
	 */
	public static EventQuery all() {
		return new EventQuery(null, null, null, null, null, null, null, null);
	}

	/**
	 * This query for rows of one status only.
	 * @param status the status
	 * @return the narrower query
	 */
	public EventQuery withStatus(EventStatus status) {
		return new EventQuery(status, this.eventType, this.destination, this.key, this.aggregateType,
				this.aggregateId, this.createdFrom, this.createdBefore);
	}

}
