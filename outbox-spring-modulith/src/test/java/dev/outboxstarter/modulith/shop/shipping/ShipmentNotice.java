package dev.outboxstarter.modulith.shop.shipping;

/**
 * What the shop tells others of a {@link ShipmentDispatched}: the payload it is mapped to.
 *
 * @param orderId the order shipped, the message key
 * @param carrier who carries it
 */
public record ShipmentNotice(String orderId, String carrier) {
}
