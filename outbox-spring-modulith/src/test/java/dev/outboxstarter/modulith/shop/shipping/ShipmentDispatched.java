package dev.outboxstarter.modulith.shop.shipping;

/**
 * A shipment left the warehouse: not annotated, externalized by the application's configuration.
 *
 * @param shipmentId the shipment
 * @param orderId the order it ships
 * @param carrier who carries it
 */
public record ShipmentDispatched(String shipmentId, String orderId, String carrier) {
}
