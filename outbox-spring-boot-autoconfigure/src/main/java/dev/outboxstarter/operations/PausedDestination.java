package dev.outboxstarter.operations;

import java.time.Instant;

/**
 * A destination this instance sends nothing to for now: it failed as unavailable while its transport
 * took messages to other destinations (a topic that does not exist, say), and its events wait, never
 * {@code DEAD}. Once the pause is over the next event to it is sent: the pause ends when that send is
 * acknowledged, and a longer one follows if it fails.
 *
 * @param transport the transport's name
 * @param destination the destination, e.g. a topic
 * @param until when the current pause is over (in the past while the next send to it is awaited)
 * @param pauses how many pauses in a row, the current one included
 * @param error the failure that started the current pause
 * @since 0.1.0
 */
public record PausedDestination(String transport, String destination, Instant until, int pauses, String error) {
}
