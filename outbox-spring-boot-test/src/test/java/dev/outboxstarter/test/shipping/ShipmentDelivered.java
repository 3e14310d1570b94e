package dev.outboxstarter.test.shipping;

import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

@OutboxEvent(type = "shipping.delivered", destination = "shipments", key = "shipmentId")
public record ShipmentDelivered(UUID shipmentId) {
}
