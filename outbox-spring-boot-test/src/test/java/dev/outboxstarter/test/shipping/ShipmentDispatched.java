package dev.outboxstarter.test.shipping;

import java.util.UUID;

import dev.outboxstarter.core.OutboxEvent;

@OutboxEvent(destination = "shipments")
public record ShipmentDispatched(UUID shipmentId, String address) {
}
