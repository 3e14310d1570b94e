package dev.outboxstarter.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.BacklogSnapshot;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.PausedDestination;
import dev.outboxstarter.operations.TenantsReading;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The outbox's health, from the latest backlog reading (never a query of its own): {@code DOWN} when
 * the oldest pending event has waited longer than allowed, when the relay has not run for longer than
 * allowed, when there are more DEAD events than allowed (if a limit is set), or when the backlog
 * cannot be read. Transports this instance found unavailable and destinations it paused are shown as
 * details; their events wait, and the oldest pending event's age says how long. The outboxes of the
 * application's other data sources are checked alike, each under {@code otherOutboxes}, and any of
 * them with a problem makes the outbox {@code DOWN}. The tenants' outboxes are shown under
 * {@code tenants}, with those the relay cannot reach: one tenant's database or schema does not make
 * the application's outbox {@code DOWN}, since every other tenant's events still go out.
 */
class OutboxHealthIndicator extends AbstractHealthIndicator {

	private final OutboxMonitoring monitoring;

	private final Duration maxOldestPendingAge;

	private final Duration maxTimeSinceRelayRun;

	private final @Nullable Long maxDeadEvents;

	/**
	 * Creates the indicator.
	 * @param monitoring what is pending or DEAD and why
	 * @param maxOldestPendingAge longest wait of the oldest pending event before DOWN
	 * @param maxTimeSinceRelayRun longest time without a relay run before DOWN
	 * @param maxDeadEvents most DEAD events before DOWN, or {@code null} for no limit
	 */
	OutboxHealthIndicator(OutboxMonitoring monitoring, Duration maxOldestPendingAge, Duration maxTimeSinceRelayRun,
			@Nullable Long maxDeadEvents) {
		super("Outbox health check failed");
		this.monitoring = monitoring;
		this.maxOldestPendingAge = maxOldestPendingAge;
		this.maxTimeSinceRelayRun = maxTimeSinceRelayRun;
		this.maxDeadEvents = maxDeadEvents;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		List<String> problems = new ArrayList<>();
		builder.withDetails(inspect(this.monitoring, problems, ""));
		Map<String, Object> others = new LinkedHashMap<>();
		this.monitoring.otherOutboxes().forEach((name, outbox) -> {
			List<String> outboxProblems = new ArrayList<>();
			Map<String, Object> details = inspect(outbox, outboxProblems, "outbox '" + name + "': ");
			details.put("status", outboxProblems.isEmpty() ? Status.UP.getCode() : Status.DOWN.getCode());
			others.put(name, details);
			problems.addAll(outboxProblems);
		});
		if (!others.isEmpty()) {
			builder.withDetail("otherOutboxes", others);
		}
		TenantsReading tenants = this.monitoring.tenants();
		if (tenants != null) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("count", tenants.tenants());
			details.put("lastRound", String.valueOf(tenants.lastRound()));
			details.put("failing", tenants.failing());
			builder.withDetail("tenants", details);
		}
		if (problems.isEmpty()) {
			builder.up();
		}
		else {
			builder.down().withDetail("problems", problems);
		}
	}

	/**
	 * The details of one outbox, adding what is wrong with it to {@code problems}.
	 */
	private Map<String, Object> inspect(OutboxMonitoring outbox, List<String> problems, String problemPrefix) {
		Map<String, Object> details = new LinkedHashMap<>();
		List<String> found = new ArrayList<>();
		details.put("relayMode", outbox.relayMode());
		BacklogSnapshot backlog = outbox.latestBacklog();
		if (backlog != null) {
			checkBacklog(backlog, details, found);
		}
		if (outbox.relayRuns()) {
			Instant lastRun = outbox.lastRelayRun();
			details.put("lastRelayRun", String.valueOf(lastRun));
			Duration sinceRun = (lastRun != null) ? Duration.between(lastRun, Instant.now()) : Duration.ZERO;
			if (sinceRun.compareTo(this.maxTimeSinceRelayRun) > 0) {
				found.add("the relay has not run for " + sinceRun
						+ ", longer than outbox.health.max-time-since-relay-run (" + this.maxTimeSinceRelayRun + ")");
			}
		}
		Set<String> unavailableTransports = outbox.unavailableTransports();
		if (!unavailableTransports.isEmpty()) {
			details.put("unavailableTransports", unavailableTransports);
		}
		List<PausedDestination> pausedDestinations = outbox.pausedDestinations();
		if (!pausedDestinations.isEmpty()) {
			details.put("pausedDestinations", pausedDestinations);
		}
		found.forEach((problem) -> problems.add(problemPrefix + problem));
		return details;
	}

	private void checkBacklog(BacklogSnapshot snapshot, Map<String, Object> details, List<String> problems) {
		BacklogReading reading = snapshot.reading();
		if (reading != null) {
			Duration oldestAge = reading.oldestPendingAge();
			details.put("pending", reading.pending());
			details.put("scheduled", reading.scheduled());
			details.put("oldestPendingAge", oldestAge.toString());
			details.put("dead", reading.dead());
			details.put("readAt", String.valueOf(snapshot.readAt()));
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
