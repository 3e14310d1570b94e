package dev.outboxstarter.spi;

/**
 * Which path published an event.
 *
 * @since 0.1.0
 */
public enum PublishPath {

	/** Right after the commit, by the instance that wrote it. */
	FAST,

	/** By the polling relay of any instance. */
	RELAY

}
