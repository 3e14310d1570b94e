package dev.outboxstarter.actuate;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationStyle;

/**
 * Configuration of the 'outbox' health indicator: the thresholds beyond which the outbox is DOWN.
 */
@ConfigurationProperties("outbox.health")
class OutboxHealthProperties {

	/**
	 * Longest the oldest pending event may wait before the outbox is DOWN.
	 */
	private final Duration maxOldestPendingAge;

	/**
	 * Longest this instance's relay may go without completing a poll before the outbox is DOWN.
	 */
	private final Duration maxTimeSinceRelayRun;

	/**
	 * Most DEAD events before the outbox is DOWN. Unset: DEAD events are reported, never DOWN.
	 */
	private final @Nullable Long maxDeadEvents;

	public OutboxHealthProperties(@DefaultValue("5m") Duration maxOldestPendingAge,
			@DefaultValue("2m") Duration maxTimeSinceRelayRun, @Nullable Long maxDeadEvents) {
		checkPositive(maxOldestPendingAge, "outbox.health.max-oldest-pending-age");
		checkPositive(maxTimeSinceRelayRun, "outbox.health.max-time-since-relay-run");
		if (maxDeadEvents != null && maxDeadEvents < 0) {
			throw new IllegalArgumentException(
					"outbox.health.max-dead-events=" + maxDeadEvents + " is invalid: it must not be negative");
		}
		this.maxOldestPendingAge = maxOldestPendingAge;
		this.maxTimeSinceRelayRun = maxTimeSinceRelayRun;
		this.maxDeadEvents = maxDeadEvents;
	}

	private static void checkPositive(Duration duration, String property) {
		if (duration.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException(
					property + "=" + format(duration) + " is invalid: it must be at least 1ms");
		}
	}

	/**
	 * Fails start-up unless the relay may go without a run for longer than it pauses between two polls,
	 * or the indicator would be DOWN between them.
	 * @param pollInterval the relay's {@code outbox.relay.poll-interval}
	 * @throws OutboxConfigurationException when {@code max-time-since-relay-run} is not longer
	 */
	void checkLongerThanRelayPollInterval(Duration pollInterval) {
		if (this.maxTimeSinceRelayRun.compareTo(pollInterval) <= 0) {
			throw new OutboxConfigurationException("outbox.health.max-time-since-relay-run="
					+ format(this.maxTimeSinceRelayRun) + " is invalid: it must be longer than "
					+ "outbox.relay.poll-interval (" + format(pollInterval)
					+ "), or the health indicator is DOWN between two polls",
					"Set outbox.health.max-time-since-relay-run longer than outbox.relay.poll-interval");
		}
	}

	/**
	 * A duration in the largest unit that shows it exactly, as it was most likely written, like the
	 * messages of the other {@code outbox.*} settings.
	 */
	private static String format(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		for (ChronoUnit unit : List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES, ChronoUnit.SECONDS,
				ChronoUnit.MILLIS, ChronoUnit.MICROS)) {
			if (duration.toNanos() % unit.getDuration().toNanos() == 0) {
				return DurationStyle.SIMPLE.print(duration, unit);
			}
		}
		return DurationStyle.SIMPLE.print(duration, ChronoUnit.NANOS);
	}

	public Duration getMaxOldestPendingAge() {
		return this.maxOldestPendingAge;
	}

	public Duration getMaxTimeSinceRelayRun() {
		return this.maxTimeSinceRelayRun;
	}

	public @Nullable Long getMaxDeadEvents() {
		return this.maxDeadEvents;
	}

}
