package dev.outboxstarter.operations;

/**
 * Where an outbox row is in its life.
 *
 * @since 0.1.0
 */
public enum EventStatus {

	/** Waiting to be published, or being retried. */
	PENDING,

	/** Acknowledged by its broker; kept for the retention, then deleted. */
	PUBLISHED,

	/** Used up its attempts; kept until retried or discarded. */
	DEAD

}
