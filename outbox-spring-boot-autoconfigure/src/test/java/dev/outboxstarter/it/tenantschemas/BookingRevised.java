package dev.outboxstarter.it.tenantschemas;

import dev.outboxstarter.OutboxEvent;

/**
 * Keyed by the booking, so that the revisions of one booking keep their order; the tenant is in the
 * payload, so that consumers tell the tenants apart.
 */
@OutboxEvent(destination = "${test.topic}", key = "booking")
public record BookingRevised(String run, String tenant, String booking, int revision) {
}
