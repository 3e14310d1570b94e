package dev.outboxstarter.test.shipping;

import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

@OutboxEvent(destination = "shipments")
public record ShipmentDispatched(UUID shipmentId, String address) {
}
