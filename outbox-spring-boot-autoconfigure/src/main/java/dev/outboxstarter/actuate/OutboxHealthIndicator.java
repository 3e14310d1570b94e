package dev.outboxstarter.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.outboxstarter.core.backlog.BacklogMonitor;
import dev.outboxstarter.core.publish.Outages;
import dev.outboxstarter.core.publish.PausedDestination;
import dev.outboxstarter.core.relay.OutboxRelay;
import dev.outboxstarter.core.store.BacklogReading;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The outbox's health, from the latest backlog reading (never a query of its own): {@code DOWN} when
 * the oldest pending event has waited longer than allowed, when the relay has not run for longer than
 * allowed, when there are more DEAD events than allowed (if a limit is set), or when the backlog
 * cannot be read. Transports this instance found unavailable and destinations it paused are shown as
 * details; their events wait, and the oldest pending event's age says how long.
 */
public class OutboxHealthIndicator extends AbstractHealthIndicator {

	private final @Nullable BacklogMonitor backlog;

	private final String relayMode;

	private final @Nullable OutboxRelay relay;

	private final @Nullable Outages outages;

	private final Duration maxOldestPendingAge;

	private final Duration maxTimeSinceRelayRun;

	private final @Nullable Long maxDeadEvents;

	/**
	 * Creates the indicator.
	 * @param relayMode {@code polling} or {@code log}, shown as the {@code relayMode} detail
	 * @param backlog the latest backlog reading, or {@code null} when the log relay publishes: the rows
	 * are gone from the table at once, and Debezium's lag is the connector's to report
	 * @param relay the relay, or {@code null} when this instance runs none
	 * @param outages what this instance found unavailable, or {@code null} when it publishes nothing
	 * @param maxOldestPendingAge longest wait of the oldest pending event before DOWN
	 * @param maxTimeSinceRelayRun longest time without a relay run before DOWN
	 * @param maxDeadEvents most DEAD events before DOWN, or {@code null} for no limit
	 */
	public OutboxHealthIndicator(String relayMode, @Nullable BacklogMonitor backlog, @Nullable OutboxRelay relay, @Nullable Outages outages,
			Duration maxOldestPendingAge, Duration maxTimeSinceRelayRun, @Nullable Long maxDeadEvents) {
		super("Outbox health check failed");
		this.relayMode = relayMode;
		this.backlog = backlog;
		this.relay = relay;
		this.outages = outages;
		this.maxOldestPendingAge = maxOldestPendingAge;
		this.maxTimeSinceRelayRun = maxTimeSinceRelayRun;
		this.maxDeadEvents = maxDeadEvents;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		List<String> problems = new ArrayList<>();
		builder.withDetail("relayMode", this.relayMode);
		if (this.backlog != null) {
			checkBacklog(this.backlog.snapshot(), builder, problems);
		}
		if (this.relay != null) {
			Instant lastRun = this.relay.lastRun();
			builder.withDetail("lastRelayRun", String.valueOf(lastRun));
			Duration sinceRun = (lastRun != null) ? Duration.between(lastRun, Instant.now()) : Duration.ZERO;
			if (sinceRun.compareTo(this.maxTimeSinceRelayRun) > 0) {
				problems.add("the relay has not run for " + sinceRun
						+ ", longer than outbox.health.max-time-since-relay-run (" + this.maxTimeSinceRelayRun + ")");
			}
		}
		if (this.outages != null) {
			Set<String> unavailableTransports = this.outages.unavailableTransports();
			if (!unavailableTransports.isEmpty()) {
				builder.withDetail("unavailableTransports", unavailableTransports);
			}
			List<PausedDestination> pausedDestinations = this.outages.pausedDestinations();
			if (!pausedDestinations.isEmpty()) {
				builder.withDetail("pausedDestinations", pausedDestinations);
			}
		}
		if (problems.isEmpty()) {
			builder.up();
		}
		else {
			builder.down().withDetail("problems", problems);
		}
	}

	private void checkBacklog(BacklogMonitor.Snapshot snapshot, Health.Builder builder, List<String> problems) {
		BacklogReading reading = snapshot.reading();
		if (reading != null) {
			Duration oldestAge = reading.oldestPendingAge();
			builder.withDetail("pending", reading.pending())
				.withDetail("oldestPendingAge", oldestAge.toString())
				.withDetail("dead", reading.dead())
				.withDetail("readAt", String.valueOf(snapshot.readAt()));
			if (oldestAge.compareTo(this.maxOldestPendingAge) > 0) {
				problems.add("the oldest pending event has waited " + oldestAge
						+ ", longer than outbox.health.max-oldest-pending-age (" + this.maxOldestPendingAge + ")");
			}
			if (this.maxDeadEvents != null && reading.dead() > this.maxDeadEvents) {
				problems.add(reading.dead() + " DEAD events, more than outbox.health.max-dead-events ("
						+ this.maxDeadEvents + ")");
			}
		}
		if (snapshot.error() != null) {
			problems.add("the backlog could not be read: " + snapshot.error());
		}
	}

}
