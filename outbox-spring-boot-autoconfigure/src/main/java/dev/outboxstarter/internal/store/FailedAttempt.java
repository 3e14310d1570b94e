package dev.outboxstarter.internal.store;

import java.time.Duration;
import java.util.UUID;

/**
 * One failed publish attempt to record.
 *
 * @param id the row id
 * @param dead whether the row has used up its attempts and becomes {@code DEAD}
 * @param retryDelay how long until the row is due again
 * @param error what went wrong, stored truncated in {@code last_error}
 */
public record FailedAttempt(UUID id, boolean dead, Duration retryDelay, String error) {
}
