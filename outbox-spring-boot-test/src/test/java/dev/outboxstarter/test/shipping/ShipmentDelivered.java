package dev.outboxstarter.test.shipping;

import java.util.UUID;

import dev.outboxstarter.core.OutboxEvent;

@OutboxEvent(type = "shipping.delivered", destination = "shipments", key = "shipmentId")
public record ShipmentDelivered(UUID shipmentId) {
}
