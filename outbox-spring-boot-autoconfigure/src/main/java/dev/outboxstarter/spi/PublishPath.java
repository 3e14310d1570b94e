package dev.outboxstarter.spi;

/**
 * Which path published an event.
 */
public enum PublishPath {

	/** Right after the commit, by the instance that wrote it. */
	FAST,

	/** By the polling relay of any instance. */
	RELAY

}
