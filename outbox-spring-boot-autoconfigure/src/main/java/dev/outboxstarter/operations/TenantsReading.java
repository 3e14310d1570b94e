package dev.outboxstarter.operations;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The tenants' outboxes as their relay last saw them (see {@code OutboxTenants}).
 *
 * @param tenants how many tenants the relay's last round was given
 * @param failing the tenants whose outbox could not be relayed at their last attempt, with why, in the
 * order of their ids; their events stay pending until it can
 * @param lastRound when the relay last completed a round, or {@code null} when it does not run
 * @since 0.1.0
 */
public record TenantsReading(int tenants, Map<String, String> failing, @Nullable Instant lastRound) {

	public TenantsReading {
		failing = Map.copyOf(failing);
	}

}
